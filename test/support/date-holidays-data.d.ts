// date-holidays' raw data export, which its own types do not describe (read by test/unit/holiday-rules.test.ts).
declare module "date-holidays/data" {
  export const data: { version: string; holidays: Record<string, object>; names: Record<string, object> };
}
