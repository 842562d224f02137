// npm run holidays:generate: writes src/domain/holiday-rules.json, the part of date-holidays' data
// the Worker reads (docs/decisions/deploy.md). Every country stays; what no account can ask for
// goes: states and regions (an account has a country code only), holidays that are not public
// (only public ones close days), and names in languages no account locale or fallback reaches.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Name languages src/domain/holidays.ts asks for, besides each country's own (the library's fallback). */
export const NAME_LANGUAGES = ["en", "sv", "no", "nb"];

export const RULES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/domain/holiday-rules.json");

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Only the wanted languages; all of them when none is there, so the library's answer does not change. */
function trimNames(names, languages) {
  if (!isObject(names)) return names;
  const kept = Object.fromEntries(Object.entries(names).filter(([language]) => languages.has(language)));
  return Object.keys(kept).length > 0 ? kept : names;
}

/** A country's own day rules with the `_days` reference (another country's rules) copied in. */
function countryDays(data, country) {
  if (!country._days) return country.days ?? {};
  const referenced = [].concat("holidays", country._days, "days").reduce((node, key) => node?.[key], data);
  if (!referenced) throw new Error(`unknown _days reference ${country._days}`);
  return { ...referenced, ...country.days };
}

/** The type the library gives a rule: its own, else public (a shared name carries none). */
const typeOf = (day) => day.type || "public";

/** The languages the library may pick a rule's name from; all of them if it has none of the wanted. */
function nameLanguages(data, day, wanted) {
  const merged = { ...data.names[day._name]?.name, ...(isObject(day.name) ? day.name : {}) };
  return Object.keys(merged).some((language) => wanted.has(language)) ? wanted : new Set(Object.keys(merged));
}

/** The Worker's holiday data from date-holidays' `data` export: same answers for every country, smaller. */
export function trimHolidayData(data) {
  const holidays = {};
  const sharedNameLanguages = new Map(); // shared name key -> languages some country may pick
  for (const [code, country] of Object.entries(data.holidays)) {
    const wanted = new Set([...NAME_LANGUAGES, ...(country.langs ?? [])]);
    const { states, regions, _days, days, names, ...settings } = country;
    const publicDays = [];
    for (const [rule, day] of Object.entries(countryDays(data, country))) {
      // `false` removes an inherited rule, and a country inherits none
      if (!isObject(day) || typeOf(day) !== "public") continue;
      const languages = nameLanguages(data, day, wanted);
      if (day._name && data.names[day._name]) {
        const seen = sharedNameLanguages.get(day._name) ?? new Set();
        sharedNameLanguages.set(day._name, new Set([...seen, ...languages]));
      }
      publicDays.push([rule, { ...day, ...(day.name ? { name: trimNames(day.name, languages) } : {}) }]);
    }
    holidays[code] = { ...settings, names: trimNames(names, wanted), days: Object.fromEntries(publicDays) };
  }
  const sharedNames = [...sharedNameLanguages].sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, languages]) => [key, { ...data.names[key], name: trimNames(data.names[key].name, languages) }]);
  // The library appends "(substitute day)" in the first language of the caller's list that has it.
  return {
    version: data.version,
    license: data.license,
    holidays,
    names: { ...Object.fromEntries(sharedNames), substitutes: data.names.substitutes },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { data } = await import("date-holidays/data");
  writeFileSync(RULES_FILE, `${JSON.stringify(trimHolidayData(data), null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), RULES_FILE)} from date-holidays data ${data.version}`);
}
