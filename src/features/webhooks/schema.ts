// Web hook input: POST/PUT /web_hooks. The target URL's policy depends on the environment, so
// it is checked in service.ts; here only its shape.
import * as z from "zod";
import { boolean, page, requiredText } from "../../http/fields";
import { WEBHOOK_EVENTS } from "./emit";
import { MAX_TARGET_URL } from "./ssrf";

const OBJECTS = [...new Set(WEBHOOK_EVENTS.map((name) => name.split(".")[0]))];

/** An event name, `<object>.*` for an object that has events, or `*` (spec: Wildcards). */
const isSubscribableEvent = (name: string) => name === "*" || (WEBHOOK_EVENTS as readonly string[]).includes(name) || OBJECTS.some((o) => name === `${o}.*`);

const event = () =>
  requiredText().refine(isSubscribableEvent, {
    message: `is not a known event: use one of ${WEBHOOK_EVENTS.join(", ")}, <object>.* or *`,
  });

const attributes = {
  target_url: requiredText(MAX_TARGET_URL),
  event: event(),
  // Web hooks are deleted for real, so `active` is the only way to pause one: it is input here.
  active: boolean().optional(),
};

const webHookInput = z.object(attributes);
export const createWebHookBody = z.object({ web_hook: webHookInput });
export const updateWebHookBody = z.object({ web_hook: webHookInput.partial() });
export const deliveriesQuery = z.object({ page: page() });

export type WebHookInput = z.output<typeof webHookInput>;
export type WebHookUpdate = Partial<WebHookInput>;
