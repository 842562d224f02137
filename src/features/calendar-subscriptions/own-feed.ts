// A subscription to one of this service's own calendar feeds (a resource's bookings as another
// resource's busy times, issue 32's round trip): read in-process by its token, never fetched. A
// Worker fetching its own host would go out through the edge and back (and the address rule
// refuses this service's hosts); locally, `<subdomain>.localhost` resolves in browsers and curl
// but not in the runtime.
import { configOf } from "../../config";
import { openDb } from "../../db/client";
import { accountOfSubdomain } from "../../db/directory";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { feedAnswer, feedOfToken } from "../calendar-feeds/feed";
import { FEED_FILE } from "../calendar-feeds/schema";
import { systemDeps } from "../system-deps";
import type { FetchOutcome, Validators } from "./fetch";

export interface OwnFeed {
  subdomain: string;
  host: string;
  token: string;
}

/** The booking site and token an address names, when it is one of this service's calendar feeds. */
export function ownFeedOf(url: string, env: Env): OwnFeed | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const root = configOf(env).ROOT_DOMAIN.toLowerCase();
  const host = parsed.hostname.toLowerCase();
  const subdomain = host.endsWith(`.${root}`) ? host.slice(0, -root.length - 1) : "";
  const token = parsed.pathname.startsWith("/calendar/") ? FEED_FILE.exec(parsed.pathname.slice("/calendar/".length))?.[1] : undefined;
  if (!subdomain || subdomain.includes(".") || !token) return null;
  return { subdomain, host: parsed.hostname, token };
}

/** The feed as its booking site would answer it, with its ETag: unchanged when the last one is still it. */
export async function readOwnFeed(env: Env, feed: OwnFeed, validators: Validators, now: number): Promise<FetchOutcome> {
  const account = await accountOfSubdomain(env, feed.subdomain);
  if (!account?.public_access) return { kind: "failed", error: "HTTP 404: no booking site is served at this address" };
  const deps = systemDeps(openDb(shardD1(env, account.shard)), env, account, now);
  const ref = await feedOfToken(deps, feed.token);
  if (!ref) return { kind: "failed", error: "HTTP 404: the address opens no calendar feed (deleted or rotated)" };
  const answer = await feedAnswer(deps, ref, feed.host);
  if (validators.etag === answer.etag) return { kind: "unchanged" };
  return { kind: "fetched", text: answer.body, etag: answer.etag, lastModified: null };
}
