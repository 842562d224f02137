// POST /people/perishable_token/send and /verify, on the private API and the booking site.
import { Hono } from "hono";
import { nationalIdKeys } from "../../config";
import type { NationalIdKeys } from "../../db/national-id";
import type { Person } from "../../db/schema";
import type { AppEnv, Surface } from "../../env";
import { formatInstant } from "../../domain/time";
import { body } from "../../http/validate";
import { deps } from "../deps";
import { toPersonJson } from "../people/serializer";
import { sendTokenBody, verifyTokenBody } from "./schema";
import { sendToken, verifyToken } from "./service";

export const perishableTokenRoutes = new Hono<AppEnv>();

/** A visitor who proved the number sees who they are, not the account's notes about them. */
function personOut(person: Person, surface: Surface, timeZone: string, keys: NationalIdKeys | null) {
  const json = toPersonJson(person, timeZone, keys);
  if (surface !== "public_api") return json;
  const { notes: _n, national_id_no: _id, custom_data: _c, external_id: _e, ...visible } = json;
  return visible;
}

perishableTokenRoutes.post("/send", body(sendTokenBody, { root: "person" }), async (c) => {
  const sent = await sendToken(deps(c), c.req.valid("json").person);
  return c.json({ perishable_token: { phone_number: sent.identifier, expires_at: formatInstant(sent.expires_at, c.var.account.time_zone) } });
});

perishableTokenRoutes.post("/verify", body(verifyTokenBody, { root: "person" }), async (c) => {
  const input = c.req.valid("json");
  const person = await verifyToken(deps(c), input.person, input.perishable_token);
  return c.json({ person: person ? personOut(person, c.var.surface, c.var.account.time_zone, nationalIdKeys(c.env)) : {} });
});
