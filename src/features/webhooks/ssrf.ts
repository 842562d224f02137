// Which target URLs a web hook may post to: http(s) only, and in production never an address
// inside a network the service can reach but the tenant should not (SSRF). Pure: no env reads.

export interface TargetPolicy {
  /** Production: https only, and no IP literals, local names or the service's own hosts. */
  production: boolean;
  /** The service's own domain (public booking sites live under it). */
  rootDomain: string;
}

export const MAX_TARGET_URL = 2000;

// Names that resolve inside a private network by convention (RFC 6761, RFC 8375, mDNS).
const LOCAL_SUFFIXES = ["localhost", "local", "internal", "intranet", "lan", "home.arpa", "arpa"];

/** Why `raw` may not be a target, as a 400 message on `target_url`; null when it may. */
export function targetUrlProblem(raw: string, policy: TargetPolicy): string | null {
  if (raw.length > MAX_TARGET_URL) return `is too long (maximum is ${MAX_TARGET_URL} characters)`;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http or https URL";
  if (!url.hostname) return "is not a valid URL";
  if (!policy.production) return null;
  if (url.protocol !== "https:") return "must be an https URL";
  return hostProblem(url.hostname, policy.rootDomain);
}

function hostProblem(rawHost: string, rootDomain: string): string | null {
  const host = rawHost.toLowerCase().replace(/\.+$/, "");
  // The URL parser has already turned decimal, hex, octal and short IPv4 forms into dotted
  // quads and put every IPv6 form (IPv4-mapped included) in brackets, so these two shapes catch
  // every IP literal. None is allowed: a tenant's receiver has a name.
  if (host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return "must name a host, not an IP address";
  if (!host.includes(".")) return "must be a public host name";
  if (LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return "must not point at a private, loopback or link-local address";
  }
  const own = rootDomain.toLowerCase().replace(/\.+$/, "");
  if (own && (host === own || host.endsWith(`.${own}`))) return "must not point at this service";
  return null;
}
