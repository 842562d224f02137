// CPU of rendering one booking confirmation, in Node: the Liquid text alone (what the request
// renders and the sink or `http` delivers), beside the whole e-mail the SMTP provider writes at
// sending (that text, then the HTML part, the calendar invitation and worker-mailer's MIME
// message, through smtp.ts itself). Bundled by messages.ts with smtp-client.ts and
// `cloudflare:sockets` replaced (render-shims/), since workerd stops its clock during CPU work.
import type { Account, Booking, Person, Resource, Service } from "../src/db/schema";
import type { Env } from "../src/env";
import { invitationOf } from "../src/features/messages/invitation";
import { renderMessage, type MessageContext } from "../src/features/messages/render";
import type { Message } from "../src/features/messages/serializer";
import { sendOverSmtp } from "../src/features/messages/smtp";
import { templatesFor } from "../src/features/messages/templates";
import { written } from "./render-shims/smtp-submit";

const WARM_UP = 50;
const CALLS = 1000;

const now = Date.parse("2030-01-02T09:00:00Z");
const account = {
  id: 1,
  subdomain: "salon",
  name: "Salon Nord",
  email: "salon@example.com",
  address: "Storgata 1, Oslo",
  phone_number: "+4722000000",
  time_zone: "Europe/Oslo",
  country_code: "NO",
  locale: "en",
} as unknown as Account;
const booking = {
  id: 42,
  title: null,
  state: "confirmed",
  active: true,
  count: 1,
  external_id: null,
  verification_code: null,
  booked_from: Date.parse("2030-01-07T09:00:00Z"),
  booked_to: Date.parse("2030-01-07T10:00:00Z"),
  expires_at: null,
  custom_data: {},
  payment: null,
  revision: 1,
} as unknown as Booking;
const ctx: MessageContext = {
  account,
  booking,
  person: { id: 7, name: "Kari Nordmann", email: "kari@example.com", phone_number: null, phone_e164: null } as unknown as Person,
  service: { id: 3, title: "Haircut", description: null, price: null } as unknown as Service,
  resource: { id: 2, title: "Chair 1" } as unknown as Resource,
  event: null,
  link: "https://salon.example.com/?booking=42&token=abcdefabcdefabcdefabcdef",
  // The built-in confirmation names the booking's calendar file (a signed link, made in the request).
  calendarUrl: "https://salon.example.com/calendar/bookings/42.ics?expires=1900000000&sig=0123456789abcdef0123456789abcdef",
};
const choice = templatesFor("confirmation", "email", account, ctx.service ?? null);
const invitation = invitationOf({ ROOT_DOMAIN: "example.com" } as unknown as Env, account, ctx, "confirmation", "kari@example.com")!;
const settings = { host: "127.0.0.1", port: 25, security: "none" as const, from: "bookings@mail.example.com" };

const text = () => renderMessage(choice, ctx);

async function email() {
  const rendered = await renderMessage(choice, ctx);
  const message = {
    id: 9,
    account_id: account.id,
    booking_id: booking.id,
    person_id: 7,
    kind: "confirmation",
    channel: "email",
    recipient: "kari@example.com",
    subject: rendered.subject,
    body: rendered.body,
    status: "sending",
    created_at: now,
    updated_at: now,
  } as unknown as Message;
  const result = await sendOverSmtp(settings, {
    message,
    account,
    subject: rendered.subject ?? "",
    text: rendered.body,
    invitation: { ...invitation, sequence: 1 },
    now,
  });
  if (!result.ok) throw new Error(result.error);
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))];

/** µs of each of `CALLS` calls after `WARM_UP`, and the process's CPU µs over them. */
async function time(run: () => Promise<unknown>) {
  for (let i = 0; i < WARM_UP; i++) await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await run();
    times.push((performance.now() - started) * 1000);
  }
  const used = process.cpuUsage(cpu);
  return { times, cpu: used.user + used.system };
}

/** Two runs' samples as one: median and p95 µs, and CPU µs per call. */
function summary(a: { times: number[]; cpu: number }, b: { times: number[]; cpu: number }) {
  const times = [...a.times, ...b.times];
  return { median: median(times), p95: quantile(times, 0.95), cpu: (a.cpu + b.cpu) / times.length };
}

/** Times both renders, after checking the e-mail holds what the figure says it does. */
export async function renderTimings() {
  await email();
  for (const part of ["Content-Type: text/plain", "Content-Type: text/html", "method=REQUEST"]) {
    if (!written.last.includes(part)) throw new Error(`the rendered confirmation has no ${part}`);
  }
  // Alternated, so a change in the machine's load falls on both alike.
  const textFirst = await time(text);
  const emailFirst = await time(email);
  const textAgain = await time(text);
  const emailAgain = await time(email);
  return { calls: CALLS * 2, bytes: written.last.length, text: summary(textFirst, textAgain), email: summary(emailFirst, emailAgain) };
}
