// Types of holiday-rules.mjs for the TypeScript tests.
export const NAME_LANGUAGES: string[];
export const RULES_FILE: string;
export function trimHolidayData(data: object): object;
