// Types of holiday-rules.mjs for the TypeScript tests.
export const NAME_LANGUAGES: string[];
export const RULES_FILE: string;
export const ZONES_FILE: string;
export function trimHolidayData(data: object): object;
export function holidayZones(rules: { holidays: Record<string, { zones?: string[]; days: Record<string, unknown> }> }): Set<string>;
export function trimZoneData(
  packed: { version: string; zones: string[]; links: string[] },
  zones: Set<string>,
): { version: string; zones: string[]; links: string[]; countries: string[] };
