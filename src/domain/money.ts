// Amounts of money as the payment provider takes them: integers in the currency's minor units
// (øre, cents; yen and króna have none), computed from the decimals services keep as text so no
// amount ever passes through a float.

/** Digits after the decimal point of `currency` (ISO 4217, as Intl knows it). */
export function minorDigitsOf(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * A decimal string ("450", "99.5", "12.345") in minor units of `currency`, times `count`. Digits
 * beyond the currency's are rounded half up once, on the total: 3 × 0.335 EUR is 1.01 EUR.
 */
export function toMinorUnits(decimal: string, currency: string, count = 1): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new Error(`not a decimal amount: ${decimal}`);
  const [, whole, fraction = ""] = match;
  const digits = minorDigitsOf(currency);
  const scale = Math.max(digits, fraction.length);
  // Exact in BigInt: the amount in units of 10^-scale, times the count.
  const scaled = BigInt(whole + fraction.padEnd(scale, "0")) * BigInt(count);
  const drop = 10n ** BigInt(scale - digits);
  const rounded = (scaled + drop / 2n) / drop;
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`amount too large: ${decimal} × ${count}`);
  return Number(rounded);
}

/** Minor units as the decimal string the API answers amounts in ("450.00", "1200" for JPY). */
export function fromMinorUnits(minor: number, currency: string): string {
  const digits = minorDigitsOf(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return `${minor < 0 ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
