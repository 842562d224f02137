// npm run holidays:generate: writes src/domain/holiday-rules.json, the part of date-holidays' data
// the Worker reads (docs/decisions/deploy.md). Every country stays; what no account can ask for
// goes: states and regions (an account has a country code only), holidays that are not public
// (only public ones close days), and names in languages no account locale or fallback reaches.
// Beside it, src/domain/holiday-zones.json: moment-timezone's data for the zones those rules use.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Name languages src/domain/holidays.ts asks for, besides each country's own (the library's fallback). */
export const NAME_LANGUAGES = ["en", "sv", "no", "nb"];

export const RULES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/domain/holiday-rules.json");
export const ZONES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/domain/holiday-zones.json");

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
  const sharedNames = [...sharedNameLanguages]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, languages]) => [key, { ...data.names[key], name: trimNames(data.names[key].name, languages) }]);
  // The library appends "(substitute day)" in the first language of the caller's list that has it.
  return {
    version: data.version,
    license: data.license,
    holidays,
    names: { ...Object.fromEntries(sharedNames), substitutes: data.names.substitutes },
  };
}

/**
 * The zones the engine converts in, as date-holidays-parser 3.4 does without a `timezone` option
 * (src/domain/holidays.ts passes none): a country's first zone (Holidays.js, `getTimezones()[0]`),
 * the zone a rule names ("june solstice in America/Santiago"), and GMT, an equinox rule's default.
 */
export function holidayZones(rules) {
  const zones = new Set(["GMT"]);
  for (const country of Object.values(rules.holidays)) {
    if (country.zones?.[0]) zones.add(country.zones[0]);
    for (const rule of Object.keys(country.days)) {
      for (const [, zone] of rule.matchAll(/ in ([A-Za-z_]+\/[A-Za-z_/+-]+)/g)) zones.add(zone);
    }
  }
  return zones;
}

/**
 * moment-timezone's packed data (data/packed/latest.json) cut to `zones`: each kept zone's line as
 * the package has it, so its offsets for every year are the package's; a zone that is another's
 * alias keeps its link and the zone it points to.
 */
export function trimZoneData(packed, zones) {
  const links = packed.links.filter((link) => zones.has(link.split("|")[1]));
  const targets = new Set([...zones, ...links.map((link) => link.split("|")[0])]);
  const kept = packed.zones.filter((zone) => targets.has(zone.split("|")[0]));
  const known = new Set([...kept.map((zone) => zone.split("|")[0]), ...links.map((link) => link.split("|")[1])]);
  const unknown = [...zones].filter((zone) => !known.has(zone));
  if (unknown.length > 0) throw new Error(`moment-timezone has no data for ${unknown.join(", ")}`);
  return { version: packed.version, zones: kept, links, countries: [] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { data } = await import("date-holidays/data");
  const rules = trimHolidayData(data);
  writeFileSync(RULES_FILE, `${JSON.stringify(rules, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), RULES_FILE)} from date-holidays data ${data.version}`);
  const packed = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve("moment-timezone/data/packed/latest.json")), "utf8"));
  writeFileSync(ZONES_FILE, `${JSON.stringify(trimZoneData(packed, holidayZones(rules)), null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), ZONES_FILE)} from moment-timezone data ${packed.version}`);
}
