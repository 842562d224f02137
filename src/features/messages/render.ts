// Renders message templates with liquidjs, an interpreter (no eval or new Function, so it runs in
// workerd), and the variables a template may use (documented in docs/decisions/messages.md).
import type { Liquid } from "liquidjs";
import type { Account, Booking, Event, Person, Resource, Service } from "../../db/schema";
import { fromMinorUnits } from "../../domain/money";
import { offsetMsAt, formatInstant, formatNullableInstant } from "../../domain/time";
import { slotTimeTexts } from "../../domain/slot-format";
import { localeOf } from "./defaults";
import type { TemplateChoice } from "./templates";

// Templates are tenant input: an in-memory file system (no partials on disk) and limits on
// template size and memory keep one account's template from hurting others. The render limit is
// wall time, and workerd's clock moves at I/O rather than with CPU: under load it measured other
// requests' waits and failed even the built-in templates (a 500 after the booking was stored), so
// it is only a backstop; the Worker's CPU limit bounds a template's own work.
// Loaded on the first message, not at start-up: most requests send none (docs/decisions/latency.md,
// Start-up); one engine per isolate keeps its parse cache. The engine is kept, not the promise of
// it: a pending promise kept for every request would be awaited across the Durable Objects that
// share the isolate, whose I/O workerd keeps apart.
let engine: Liquid | undefined;
async function liquid(): Promise<Liquid> {
  if (engine) return engine;
  const { Liquid } = await import("liquidjs");
  const made = new Liquid({ templates: {}, ownPropertyOnly: true, parseLimit: 50_000, renderLimit: 5_000, memoryLimit: 1_000_000, cache: 100 });
  return (engine ??= made);
}

export interface MessageContext {
  account: Account;
  booking?: Booking | null;
  /** A stored person, or who a waitlist entry names (no row yet: no id). */
  person?: (Pick<Person, "name" | "email" | "phone_number" | "phone_e164"> & { id: number | null }) | null;
  service?: Service | null;
  resource?: Resource | null;
  event?: Event | null;
  code?: string | null;
  /** The visitor's booking page (with its token); null when the request does not know the token. */
  link?: string | null;
  /** A waitlist offer (features/waitlist): the held time, until when, and where to accept it. */
  offer?: { from: number; to: number; expiresAt: number; url: string } | null;
  /** The booking's calendar file, a signed link (calendar-feeds/links.ts); only when a template names it. */
  calendarUrl?: string | null;
  /** A paid booking's payment (features/payments): where to pay, or what was refunded and why. */
  payment?: { url?: string | null; refunded?: number; reason?: string | null } | null;
}

/** Whether a template names the booking's calendar file: only then is its signed link made (opt-in per template). */
export const namesCalendarFile = (choice: TemplateChoice) => [...choice.bodies, ...choice.subjects].some((t) => t.includes("calendar_url"));

const localTime = (ms: number, account: Account) => slotTimeTexts(ms, offsetMsAt(ms, account.time_zone), localeOf(account.locale)).local;

/** Plain data only: templates see values, never rows with internal columns. */
function templateVariables(ctx: MessageContext): Record<string, unknown> {
  const { account, booking, person, service, resource, event } = ctx;
  const tz = account.time_zone;
  return {
    code: ctx.code ?? booking?.verification_code ?? null,
    booking: booking && {
      id: booking.id,
      title: booking.title,
      state: booking.state,
      count: booking.count,
      external_id: booking.external_id,
      verification_code: booking.verification_code,
      booked_from: formatInstant(booking.booked_from, tz),
      booked_to: formatInstant(booking.booked_to, tz),
      starts: localTime(booking.booked_from, account),
      ends: localTime(booking.booked_to, account),
      expires_at: formatNullableInstant(booking.expires_at, tz),
      custom_data: booking.custom_data ?? {},
      url: ctx.link ?? null,
      calendar_url: ctx.calendarUrl ?? null,
    },
    person: person && {
      id: person.id,
      name: person.name,
      email: person.email,
      phone_number: person.phone_number,
      phone_number_formatted: person.phone_e164,
    },
    offer: ctx.offer && {
      starts: localTime(ctx.offer.from, account),
      ends: localTime(ctx.offer.to, account),
      expires: localTime(ctx.offer.expiresAt, account),
      url: ctx.offer.url,
    },
    payment: paymentVariables(ctx),
    service: service && { id: service.id, title: service.title, description: service.description, price: service.price },
    resource: resource && { id: resource.id, title: resource.title },
    event: event && { id: event.id, title: event.title },
    account: {
      name: account.name,
      subdomain: account.subdomain,
      email: account.email,
      phone_number: account.phone_number,
      address: account.address,
      locale: account.locale,
      time_zone: account.time_zone,
    },
  };
}

/** Amounts as decimals in the payment's currency; null for a booking that pays nothing. */
function paymentVariables({ booking, payment, account }: MessageContext) {
  const paid = booking?.payment;
  if (!paid) return null;
  return {
    amount: fromMinorUnits(paid.amount, paid.currency),
    currency: paid.currency,
    status: paid.status,
    refunded: fromMinorUnits(payment?.refunded ?? paid.amount_refunded, paid.currency),
    url: payment?.url ?? paid.checkout_url,
    reason: payment?.reason ?? null,
    held_until: booking.expires_at === null ? null : localTime(booking.expires_at, account),
  };
}

async function renderFirst(candidates: string[], variables: Record<string, unknown>): Promise<string> {
  let lastError: unknown = new Error("no template");
  const engine = await liquid();
  for (const template of candidates) {
    try {
      return (await engine.parseAndRender(template, variables)).trim();
    } catch (error) {
      // A broken account template must not silence the message: the next layer is tried.
      console.error(JSON.stringify({ message_template_error: String(error) }));
      lastError = error;
    }
  }
  throw lastError;
}

export async function renderMessage(choice: TemplateChoice, ctx: MessageContext): Promise<{ subject: string | null; body: string }> {
  const variables = templateVariables(ctx);
  const body = await renderFirst(choice.bodies, variables);
  const subject = choice.subjects.length > 0 ? await renderFirst(choice.subjects, variables) : null;
  return { subject, body };
}
