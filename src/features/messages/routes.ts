// /messages on the private API: what was sent (or refused) for the account, read back.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { pageRequest, setPageHeaders } from "../../http/pagination";
import { params, query } from "../../http/validate";
import { deps } from "../deps";
import { zValidator } from "@hono/zod-validator";
import { ApiError } from "../../http/errors";
import { listMessagesQuery, listUndeliverableQuery, undeliverableParams } from "./schema";
import { toMessageJson } from "./serializer";
import { getMessage, listMessages } from "./service";
import { listUndeliverable, releaseUndeliverable, toUndeliverableJson } from "./undeliverable";

export const messageRoutes = new Hono<AppEnv>();

messageRoutes.get("/", query(listMessagesQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page);
  const { rows, total } = await listMessages(deps(c), c.req.valid("query"), request);
  setPageHeaders(c, request, total, rows.length);
  return c.json(
    wrapList(
      "message",
      rows.map((m) => toMessageJson(m, c.var.account.time_zone)),
    ),
  );
});

messageRoutes.get("/undeliverable", query(listUndeliverableQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page);
  const { rows, total } = await listUndeliverable(deps(c), request);
  setPageHeaders(c, request, total, rows.length);
  return c.json(
    wrapList(
      "undeliverable_recipient",
      rows.map((r) => toUndeliverableJson(r, c.var.account.time_zone)),
    ),
  );
});

messageRoutes.delete(
  "/undeliverable/:channel/:recipient",
  zValidator("param", undeliverableParams, (result) => {
    // A channel that is not one names no refused recipient.
    if (!result.success) throw ApiError.notFound();
  }),
  async (c) => {
    const { channel, recipient } = c.req.valid("param");
    const released = await releaseUndeliverable(deps(c), channel, recipient);
    return c.json(wrap("undeliverable_recipient", toUndeliverableJson(released, c.var.account.time_zone)));
  },
);

messageRoutes.get("/:id", params("id"), async (c) => c.json(wrap("message", toMessageJson(await getMessage(deps(c), c.req.valid("param").id), c.var.account.time_zone))));

// The providers' delivery events are mounted by app.ts before the private API's key check.
export { deliveryEventRoutes } from "./event-routes";
