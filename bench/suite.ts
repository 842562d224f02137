// What every HTTP suite shares: the load each read figure runs under, and progress on stderr
// (stdout carries only the figures' JSON for bench/run.mjs).

/** Per read figure: a 1 s warm-up of route and floor, then `rounds` alternating rounds of `seconds`. */
export const LOAD = { connections: 1, seconds: 2, rounds: 4 };

export const log = (suite: string, message: string) => console.error(`[${suite} bench] ${message}`);
