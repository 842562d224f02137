// Which budget a request draws on: the client address Cloudflare reports, IPv6 grouped by /64.

/** Requests without `CF-Connecting-IP` (local tools talking to the worker directly) share one budget. */
export const LOCAL_CLIENT = "local";

/**
 * One IPv6 subscriber gets a whole /64 and may rotate addresses inside it freely (privacy
 * extensions), so a per-address budget would not limit anyone; the /64 is the client.
 */
export function rateLimitKey(connectingIp: string | null | undefined): string {
  const ip = connectingIp?.trim().toLowerCase();
  if (!ip) return LOCAL_CLIENT;
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (mapped) return mapped[1];
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : ip;
}

function ipv6Groups(ip: string): string[] | null {
  const halves = ip.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  // Leading zeros are optional in IPv6 text; dropping them gives one key per prefix.
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}
