// Who is calling: API-key auth for the private API, Host-based account for the public API,
// and the operator token for /admin (docs/decisions/conventions.md, "Auth and tenancy").
import { createMiddleware } from "hono/factory";
import { configOf } from "../config";
import type { Context } from "hono";
import { openDb } from "../db/client";
import { accountOfKeyHash, accountOfSubdomain } from "../db/directory";
import { holdWritesUntil, setDataShard } from "../db/request-scope";
import type { Account } from "../db/schema";
import { shardD1 } from "../db/shards";
import type { AppEnv, Surface } from "../env";
import { apiKeyCacheKey, lookUpAccount, subdomainCacheKey, type AccountLookup } from "./account-cache";
import { answeredBesideDatabase, tellAccount } from "./near-database";
import { ApiError } from "./errors";
import { secretsEqual, sha256Hex } from "./secrets";

const unauthorized = (message: string) => new ApiError(401, { error: message }, { "WWW-Authenticate": 'Bearer realm="api"' });

/** The API key from `Bearer <key>`, or from deprecated Basic with the key as user name. */
export function apiKeyFrom(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const credentials = rest.join(" ");
  if (/^bearer$/i.test(scheme)) return credentials || null;
  if (/^basic$/i.test(scheme)) {
    try {
      const decoded = atob(credentials);
      const user = decoded.split(":")[0];
      return user || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Throws the answer a request gets when its key opens no account, or one the API is closed to. */
function checkKeyAccount(account: Account | null): asserts account is Account {
  if (!account) throw unauthorized("The API key is not valid.");
  if (!account.api_enabled) throw unauthorized("The API is not enabled for this account.");
  if (account.billing_status === "unpaid") {
    throw new ApiError(402, { error: "The account has an unpaid bill: the API is closed until it is paid." });
  }
}

export const privateAuth = createMiddleware<AppEnv>(async (c, next) => {
  const key = apiKeyFrom(c.req.header("authorization"));
  if (!key) throw unauthorized("Authentication required: send your API key as 'Authorization: Bearer <key>'.");
  const hash = await sha256Hex(key);
  // Looked up by the key's SHA-256, never the key: equality of hashes leaks nothing about the key.
  const cacheKey = apiKeyCacheKey(hash);
  if (await answeredBesideDatabase(c, cacheKey)) return;
  const found = await lookUpAccount(cacheKey, c.var.now, () => accountOfKeyHash(c.env, hash));
  await onAccount(c, next, cacheKey, found, checkKeyAccount, "private_api");
});
/** The subdomain a public request names: `<subdomain>.<ROOT_DOMAIN>`, else DEFAULT_SUBDOMAIN. */
function subdomainOf(host: string | undefined, rootDomain: string, fallback?: string): string | null {
  const hostname = (host ?? "").toLowerCase().replace(/:\d+$/, "");
  const suffix = `.${rootDomain.toLowerCase()}`;
  if (hostname.endsWith(suffix)) {
    const label = hostname.slice(0, -suffix.length);
    if (label && !label.includes(".")) return label;
  }
  return fallback || null;
}

const portOf = (url: string) => (new URL(url).port ? `:${new URL(url).port}` : "");

export const publicAccount = createMiddleware<AppEnv>(async (c, next) => {
  // The URL carries the Host the client used (also under wrangler dev and in tests).
  const { ROOT_DOMAIN, DEFAULT_SUBDOMAIN } = configOf(c.env);
  const subdomain = subdomainOf(new URL(c.req.url).host, ROOT_DOMAIN, DEFAULT_SUBDOMAIN);
  if (!subdomain) {
    throw new ApiError(404, {
      error: `Nothing is served at this path on this host. The private API is under /api/v1 (with an API key); each account's public booking site is at <subdomain>.${ROOT_DOMAIN}, e.g. http://demo.${ROOT_DOMAIN}${portOf(c.req.url)}/services.`,
    });
  }
  const cacheKey = subdomainCacheKey(subdomain);
  if (await answeredBesideDatabase(c, cacheKey)) return;
  const found = await lookUpAccount(cacheKey, c.var.now, () => accountOfSubdomain(c.env, subdomain));
  await onAccount(c, next, cacheKey, found, checkSiteAccount, "public_api");
});

function checkSiteAccount(account: Account | null): asserts account is Account {
  if (!account?.public_access) throw new ApiError(404, { error: "No booking site is served at this address." });
}

/**
 * The route on the account found. On a guess (http/account-cache.ts) it runs at once, its reads
 * beside the directory's confirmation and its writes held until the confirmation (as they are
 * for the rate limiter's verdict), so at distance the lookup adds no wait. An account that changed
 * meanwhile, or a key since revoked, discards what the route did: the request is answered as the
 * directory now says, run again on the confirmed account (`AskAgain`, app.ts) if it still opens.
 */
async function onAccount(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  cacheKey: string,
  found: AccountLookup,
  check: (account: Account | null) => asserts account is Account,
  surface: Surface,
): Promise<void> {
  if (!found.confirmation) {
    check(found.account);
    enterAccount(c, found.account, surface);
    await next();
    tellAccount(c, cacheKey, found.account);
    return;
  }
  const guess = found.account;
  // A guess that would be refused is not acted on: the directory decides.
  if (!passes(check, guess)) return onAccount(c, next, cacheKey, { account: await found.confirmation }, check, surface);
  const confirmed = found.confirmation.then((account) => {
    if (!sameAccount(account, guess)) throw new AccountChanged(account);
  });
  holdWritesUntil(confirmed);
  const again = c.req.raw.clone();
  enterAccount(c, guess, surface);
  let failure: { error: unknown } | undefined;
  try {
    await next();
  } catch (error) {
    failure = { error };
  }
  try {
    await confirmed;
  } catch (changed) {
    if (!(changed instanceof AccountChanged)) throw changed;
    c.res = undefined;
    check(changed.account);
    throw new AskAgain(again);
  }
  if (failure) throw failure.error;
}

function passes(check: (account: Account | null) => void, account: Account): boolean {
  try {
    check(account);
    return true;
  } catch {
    return false;
  }
}

const sameAccount = (a: Account | null, b: Account) => a !== null && JSON.stringify(a) === JSON.stringify(b);

class AccountChanged extends Error {
  constructor(readonly account: Account | null) {
    super("the account changed since this isolate cached it");
  }
}

/** The request, to be answered from the start: the account it ran on had changed (app.ts). */
export class AskAgain extends Error {
  constructor(readonly request: Request) {
    super("asked again on the confirmed account");
  }
}

/** From here on the request works on the account's shard: its queries, its session, its bookmark. */
function enterAccount(c: Context<AppEnv>, account: Account, surface: Surface): void {
  c.set("account", account);
  c.set("surface", surface);
  c.set("db", openDb(shardD1(c.env, account.shard)));
  setDataShard(account.shard);
}

export const operatorAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  const given = apiKeyFrom(c.req.header("authorization"));
  // No token configured means the operator API is closed, not open.
  if (!expected || !given || !(await secretsEqual(given, expected))) {
    throw unauthorized("The operator token is missing or wrong.");
  }
  c.set("surface", "operator_api");
  await next();
});
