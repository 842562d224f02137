// Slot times as text: the spec's ISO form with offset, and the localised form in the account's language.
import { DAY_MS } from "./zone-days";

export type Locale = "en" | "sv" | "nb";

interface Words {
  weekdays: readonly string[]; // Monday first
  months: readonly string[];
  day: (day: number) => string;
}

// Own tables rather than Intl: ICU data differs between Node and workerd, and Intl costs microseconds per call.
const WORDS: Record<Locale, Words> = {
  en: {
    weekdays: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    day: String,
  },
  sv: {
    weekdays: ["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"],
    months: ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"],
    day: String,
  },
  nb: {
    weekdays: ["mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"],
    months: ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "desember"],
    day: (day) => `${day}.`, // Norwegian writes the day of the month as an ordinal: "24. januar"
  },
};

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

const offsetTexts = new Map<number, string>();
function offsetText(offsetMs: number): string {
  let text = offsetTexts.get(offsetMs);
  if (text === undefined) {
    const minutes = Math.round(Math.abs(offsetMs) / 60000);
    text = `${offsetMs < 0 ? "-" : "+"}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
    offsetTexts.set(offsetMs, text);
  }
  return text;
}

interface DateTexts {
  iso: string;
  local: Record<Locale, string>;
}

const dateTexts = new Map<number, DateTexts>();
function textsOfDay(dayNumber: number): DateTexts {
  let texts = dateTexts.get(dayNumber);
  if (texts === undefined) {
    const date = new Date(dayNumber * DAY_MS);
    const weekday = (dayNumber + 3) % 7; // 1970-01-01 was a Thursday
    const local = (words: Words) => `${words.weekdays[weekday]}, ${words.day(date.getUTCDate())} ${words.months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
    texts = { iso: date.toISOString().slice(0, 10), local: { en: local(WORDS.en), sv: local(WORDS.sv), nb: local(WORDS.nb) } };
    if (dateTexts.size > 20_000) dateTexts.clear();
    dateTexts.set(dayNumber, texts);
  }
  return texts;
}

export interface InstantTexts {
  iso: string;
  local: string;
}

/**
 * Texts already written, by locale, offset and instant. A slot's end is the next slot's start,
 * and every cached slot answer of a month writes the same instants again: shared texts halve
 * what a miss builds, and the answers an isolate keeps hold one copy of each instead of their own,
 * which was much of a miss's garbage collection (docs/decisions/latency.md, "What a miss leaves for the
 * garbage collector").
 */
const instantTexts = new Map<string, Map<number, Map<number, InstantTexts>>>();
let instantTextsKept = 0;

/** Both texts of an instant whose zone offset the caller already knows (same output as formatInstant); read only, shared. */
export function slotTimeTexts(epochMs: number, offsetMs: number, locale: Locale): InstantTexts {
  const kept = keptTexts(locale, offsetMs);
  let texts = kept.get(epochMs);
  if (texts === undefined) {
    kept.set(epochMs, (texts = writeTimeTexts(epochMs, offsetMs, locale)));
    instantTextsKept++;
  }
  return texts;
}

/** The texts kept for a locale and offset; all are dropped past 20,000, so an isolate's share stays a few MB. */
function keptTexts(locale: Locale, offsetMs: number): Map<number, InstantTexts> {
  if (instantTextsKept >= 20_000) {
    instantTexts.clear();
    instantTextsKept = 0;
  }
  let byOffset = instantTexts.get(locale);
  if (byOffset === undefined) instantTexts.set(locale, (byOffset = new Map()));
  let byInstant = byOffset.get(offsetMs);
  if (byInstant === undefined) byOffset.set(offsetMs, (byInstant = new Map()));
  return byInstant;
}

function writeTimeTexts(epochMs: number, offsetMs: number, locale: Locale): InstantTexts {
  const wall = epochMs + offsetMs;
  const dayNumber = Math.floor(wall / DAY_MS);
  const seconds = Math.floor((wall - dayNumber * DAY_MS) / 1000);
  const hhmm = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}`;
  const day = textsOfDay(dayNumber);
  return {
    iso: `${day.iso}T${hhmm}:${pad2(seconds % 60)}${offsetText(offsetMs)}`,
    local: `${day.local[locale]}, ${hhmm}`,
  };
}
