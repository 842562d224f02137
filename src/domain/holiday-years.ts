// The years the holiday engine answers, apart from the engine: request schemas check them, and
// importing them must not load the engine (src/domain/load-holidays.ts).

/** Years the library computes correctly; it misreads years below 100 as 19xx. */
export const HOLIDAY_YEARS = { min: 1900, max: 2199 } as const;
