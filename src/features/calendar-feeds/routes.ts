// The private API's /calendar_feeds (create or rotate, list, delete) and the booking site's
// /calendar files: a feed by its secret token, and one booking's file by its signed link.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { body, params } from "../../http/validate";
import { deps } from "../deps";
import { bookingFile } from "./booking-file";
import { feedAnswer, feedOfToken } from "./feed";
import { feedUrl, siteOrigin } from "./links";
import { createCalendarFeedBody, FEED_FILE } from "./schema";
import { toCalendarFeedJson } from "./serializer";
import { deleteCalendarFeed, listCalendarFeeds, rotateCalendarFeed } from "./service";

export const calendarFeedRoutes = new Hono<AppEnv>();

calendarFeedRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "calendar_feed",
      (await listCalendarFeeds(deps(c))).map((f) => toCalendarFeedJson(f, c.var.account.time_zone)),
    ),
  ),
);

calendarFeedRoutes.post("/", body(createCalendarFeedBody, { root: "calendar_feed" }), async (c) => {
  const { feed, token } = await rotateCalendarFeed(deps(c), c.req.valid("json").calendar_feed.resource_id ?? null);
  const url = feedUrl(siteOrigin(c.env, c.var.account, c.req.url), token);
  // The only answer holding the URL: it is stored as a hash.
  c.header("Cache-Control", "no-store");
  return c.json(wrap("calendar_feed", toCalendarFeedJson(feed, c.var.account.time_zone, url)));
});

calendarFeedRoutes.delete("/:id", params("id"), async (c) =>
  c.json(wrap("calendar_feed", toCalendarFeedJson(await deleteCalendarFeed(deps(c), c.req.valid("param").id), c.var.account.time_zone))),
);

export const calendarFileRoutes = new Hono<AppEnv>();

const CALENDAR = { "Content-Type": "text/calendar; charset=utf-8", "Referrer-Policy": "no-referrer" };
const BOOKING_FILE = /^([1-9][0-9]{0,15})\.ics$/;

calendarFileRoutes.get("/bookings/:file", async (c) => {
  const id = BOOKING_FILE.exec(c.req.param("file"))?.[1];
  if (!id) throw ApiError.notFound("booking");
  const text = await bookingFile(deps(c), Number(id), c.req.query("signature"), new URL(c.req.url).hostname);
  return c.body(text, 200, { ...CALENDAR, "Cache-Control": "private, no-cache", "Content-Disposition": `attachment; filename="booking-${id}.ics"` });
});

calendarFileRoutes.get("/:file", async (c) => {
  const token = FEED_FILE.exec(c.req.param("file"))?.[1];
  const feed = token ? await feedOfToken(deps(c), token) : null;
  if (!feed) throw ApiError.notFound("calendar feed");
  const answer = await feedAnswer(deps(c), feed, new URL(c.req.url).hostname);
  // Calendar apps revalidate on every poll: an unchanged feed is a 304 with no body.
  const headers = { ...CALENDAR, "Cache-Control": "private, no-cache", ETag: answer.etag };
  const asked = c.req.header("If-None-Match");
  if (asked?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === answer.etag)) return c.body(null, 304, headers);
  return c.body(answer.body, 200, headers);
});
