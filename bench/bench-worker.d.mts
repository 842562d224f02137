export function waitForServer(options: { what: string; probe: (signal: AbortSignal) => Promise<boolean>; output: () => string; exited?: () => boolean }): Promise<void>;
export function emptyEnvFile(root: string): string;
