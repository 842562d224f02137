// The booking page's HTML (hono/jsx, rendered on the server): services, month, day, slot, form,
// one booking with its payment, and one waitlist offer. Links carry the choice in the query string, so all of it reads without script.
import type { Child } from "hono/jsx";
import type { Account } from "../../db/schema";
import { slotTimeTexts, type Locale } from "../../domain/slot-format";
import { offsetMsAt } from "../../domain/time";
import { bookingUid, calendarText } from "../calendar-feeds/ics";
import { icsDataUrl } from "./ics";
import type { BookingView, ChosenService, OfferView, PageData } from "./page-data";
import { paymentLine, payText } from "./payment-line";
import type { Words } from "./words";

interface Ctx {
  account: Account;
  w: Words;
  now: number;
  host: string;
  taken: boolean;
  /** Back from the booking's checkout: its success page ("return") or its cancel page. */
  payment?: "return" | "cancelled";
  /** Back from a move (`&moved=1`). */
  moved?: boolean;
  /** The booking link's token, which "Change time" carries on (the page's own URL has it already). */
  token?: string;
}

/** E.164: a plus, then up to 15 digits, not starting with 0 (checked by the browser before the server does). */
const E164_PATTERN = "\\+[1-9][0-9]{6,14}";

const localText = (ms: number, ctx: Ctx) =>
  slotTimeTexts(ms, offsetMsAt(ms, ctx.account.time_zone), (ctx.account.locale === "sv" || ctx.account.locale === "nb" ? ctx.account.locale : "en") as Locale).local;

const link = (params: Record<string, string | number | undefined>) =>
  `/?${new URLSearchParams(Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString()}`;

/** Words the script needs, handed over in a data attribute (no inline script under the CSP). */
const scriptWords = (w: Words, holds: boolean, offer: boolean, waiting: boolean, moving: boolean) =>
  JSON.stringify({
    phoneInvalid: w.phoneInvalid,
    failed: w.failed,
    wrongCode: w.wrongCode,
    tooManyTries: w.tooManyTries,
    loading: w.loading,
    ...(holds ? { holdFor: w.holdFor, holdLapsed: w.holdLapsed } : {}),
    ...(offer ? { offerPassed: w.offerPassed } : {}),
    ...(waiting ? { inLine: w.inLine } : {}),
    ...(moving ? { moveClosed: w.moveClosed } : {}),
  });

export function Page({ data, ctx }: { data: PageData; ctx: Ctx }) {
  const { account, w } = ctx;
  return (
    <html lang={w.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{account.name}</title>
        {/* Answered by the Worker on every host (src/http/favicon.ts). */}
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href="/booking-page.css" />
        <script src="/booking-page.js" defer></script>
      </head>
      <body>
        <header>
          <p class="brand">
            <a href="/">{account.name}</a>
          </p>
        </header>
        <main id="main" data-words={scriptWords(w, data.holds, data.offer != null, data.chosen?.waitSlot !== undefined, data.chosen?.moving !== undefined)}>
          {data.offer !== undefined ? (
            <OfferSection offer={data.offer} ctx={ctx} />
          ) : data.booking !== undefined ? (
            <BookingSection booking={data.booking} ctx={ctx} />
          ) : data.chosen ? (
            <ServiceSection chosen={data.chosen} today={data.today} holds={data.holds} waitlist={data.waitlist} ctx={ctx} />
          ) : (
            <ServiceList data={data} ctx={ctx} />
          )}
        </main>
      </body>
    </html>
  );
}

function ServiceList({ data, ctx }: { data: PageData; ctx: Ctx }) {
  return (
    <section aria-labelledby="services-title">
      <h1 id="services-title">{ctx.w.chooseService}</h1>
      {data.groups.map((group) => (
        <section class="group">
          <h2>{group.title ?? (data.groups.length > 1 ? ctx.w.other : ctx.w.services)}</h2>
          <ul class="services">
            {group.services.map((s) => (
              <li>
                <a href={link({ service: s.id })}>{s.title}</a>
                {s.description ? <p class="muted">{s.description}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

function ServiceSection({ chosen, today, holds, waitlist, ctx }: { chosen: ChosenService; today: string; holds: boolean; waitlist: boolean; ctx: Ctx }) {
  const { service, moving } = chosen;
  const { w } = ctx;
  // Changing a booking's time: the same calendar, its links keeping the booking; no waitlist there.
  return (
    <section aria-labelledby="service-title">
      {moving ? (
        <p>
          <a id="keep-time" href={link({ booking: moving.keep.move, token: moving.keep.token })}>
            ← {w.keepTime}
          </a>
        </p>
      ) : (
        <p>
          <a href="/">← {w.back}</a>
        </p>
      )}
      <h1 id="service-title">{moving ? w.moveTitle : service.title}</h1>
      {moving ? (
        <p id="booked-now">
          {w.nowBooked}: <strong>{service.title}</strong>, {localText(moving.booking.from, ctx)}–{localText(moving.booking.to, ctx).slice(-5)} ({ctx.account.time_zone})
        </p>
      ) : service.description ? (
        <p class="muted">{service.description}</p>
      ) : null}
      <Month chosen={chosen} today={today} ctx={ctx} />
      {chosen.day && chosen.slots ? <Day chosen={chosen} waitlist={waitlist && !moving} ctx={ctx} /> : null}
      {chosen.slot ? moving ? <MoveForm chosen={chosen} holds={holds} ctx={ctx} /> : <BookingForm chosen={chosen} holds={holds} ctx={ctx} /> : null}
      {chosen.waitSlot && !moving ? <WaitlistForm chosen={chosen} ctx={ctx} /> : null}
    </section>
  );
}

const shiftMonth = (month: string, by: number) => {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
};

function Month({ chosen, today, ctx }: { chosen: ChosenService; today: string; ctx: Ctx }) {
  const { w } = ctx;
  const [y, m] = chosen.month.split("-").map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7; // Monday first
  const open = new Set(chosen.dates);
  const cells: Child[] = Array.from({ length: lead }, () => <td></td>);
  for (let d = 1; d <= days; d++) {
    const date = `${chosen.month}-${String(d).padStart(2, "0")}`;
    const label = `${d} ${w.months[m - 1]} ${y}`;
    cells.push(
      <td>
        {open.has(date) ? (
          <a
            class={date === chosen.day ? "day chosen" : "day"}
            href={link({ ...chosen.moving?.keep, service: chosen.service.id, day: date })}
            aria-label={label}
            aria-current={date === chosen.day ? "date" : undefined}
          >
            {d}
          </a>
        ) : (
          <span class="day off" aria-disabled="true">
            {d}
          </span>
        )}
      </td>,
    );
  }
  const rows: Child[][] = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(cells.slice(i, i + 7));
  const canGoBack = chosen.month > today.slice(0, 7);
  return (
    <section aria-labelledby="month-title" class="month">
      <h2 id="month-title">
        {w.chooseDay}: {w.months[m - 1]} {y}
      </h2>
      <nav class="month-nav" aria-label={`${w.prevMonth} / ${w.nextMonth}`}>
        {canGoBack ? <a href={link({ ...chosen.moving?.keep, service: chosen.service.id, month: shiftMonth(chosen.month, -1) })}>← {w.prevMonth}</a> : <span></span>}
        <a href={link({ ...chosen.moving?.keep, service: chosen.service.id, month: shiftMonth(chosen.month, 1) })}>{w.nextMonth} →</a>
      </nav>
      <table>
        <thead>
          <tr>
            {w.weekdays.map((d) => (
              <th scope="col">{d}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>{r}</tr>
          ))}
        </tbody>
      </table>
      {chosen.dates.length === 0 ? <p>{w.noDays}</p> : null}
    </section>
  );
}

function Day({ chosen, waitlist, ctx }: { chosen: ChosenService; waitlist: boolean; ctx: Ctx }) {
  const { w, account } = ctx;
  const slots = chosen.slots!;
  const [y, m, d] = chosen.day!.split("-").map(Number);
  return (
    <section aria-labelledby="day-title" class="slots">
      <h2 id="day-title">
        {w.chooseTime}: {d} {w.months[m - 1]} {y}
      </h2>
      {ctx.taken ? (
        <p class="notice" role="alert" id="taken-notice">
          {chosen.moving ? w.moveTaken : w.justTaken}
        </p>
      ) : null}
      <p class="muted">
        {w.timesIn} {account.time_zone}
      </p>
      {slots.length === 0 ? <p>{w.noSlots}</p> : null}
      <ul class="slot-list">
        {slots.map((s) => (
          <li>
            {s.free > 0 ? (
              <a
                class={s.timestamp === chosen.slot?.timestamp ? "slot chosen" : "slot"}
                data-free={s.free}
                href={link({ ...chosen.moving?.keep, service: chosen.service.id, day: chosen.day, slot: s.timestamp })}
              >
                {s.timestamp.slice(11, 16)}
                <span class="sr-only">
                  {" "}
                  ({s.free} {w.free})
                </span>
              </a>
            ) : waitlist ? (
              <a
                class={s.timestamp === chosen.waitSlot?.timestamp ? "slot full chosen" : "slot full"}
                data-wait={s.timestamp}
                href={link({ service: chosen.service.id, day: chosen.day, wait: s.timestamp })}
              >
                {s.timestamp.slice(11, 16)}{" "}
                <small>
                  {w.taken} · {w.joinShort}
                </small>
              </a>
            ) : (
              <span class="slot full" aria-disabled="true">
                {s.timestamp.slice(11, 16)} <small>{w.taken}</small>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function BookingForm({ chosen, holds, ctx }: { chosen: ChosenService; holds: boolean; ctx: Ctx }) {
  const { w, account } = ctx;
  const slot = chosen.slot!;
  const smsVerification = account.verification_method === 1;
  return (
    <section aria-labelledby="form-title">
      <h2 id="form-title">{w.yourDetails}</h2>
      <p>
        <strong>{chosen.service.title}</strong>: {slot.formatted_timestamp} ({account.time_zone})
      </p>
      {/* Its presence tells the script to hold the time; it shows the countdown (hold-asset.ts). */}
      {holds ? <p id="slot-hold" class="notice" role="timer" hidden></p> : null}
      <form id="book-form" data-service={chosen.service.id} data-from={slot.timestamp} data-to={slot.timestamp_end} data-day={chosen.day}>
        <label for="f-name">{w.name}</label>
        <input id="f-name" name="name" autocomplete="name" required maxlength={100} />
        <label for="f-email">{w.email}</label>
        <input id="f-email" name="email" type="email" autocomplete="email" required maxlength={200} />
        <label for="f-phone">{w.phone}</label>
        <input
          id="f-phone"
          name="phone_number"
          type="tel"
          autocomplete="tel"
          pattern={E164_PATTERN}
          required={smsVerification}
          aria-describedby="f-phone-hint"
          title={w.phoneHint}
        />
        <p id="f-phone-hint" class="muted">
          {w.phoneHint}
        </p>
        <p id="form-error" class="error" role="alert" hidden></p>
        <button type="submit">{w.book}</button>
        <noscript>
          <p class="notice">{w.needsJs}</p>
        </noscript>
      </form>
    </section>
  );
}

/**
 * Moving the booking to the chosen slot (PUT /bookings/{id}/move with its token, and the hold's
 * secret when the time is held): the script goes to the booking's view, or back to the day when
 * the time was taken meanwhile. Its id is the booking form's, so holding works the same.
 */
function MoveForm({ chosen, holds, ctx }: { chosen: ChosenService; holds: boolean; ctx: Ctx }) {
  const { w, account } = ctx;
  const slot = chosen.slot!;
  const { keep } = chosen.moving!;
  return (
    <section aria-labelledby="form-title">
      <h2 id="form-title">{w.moveHere}</h2>
      <p>
        <strong>{chosen.service.title}</strong>: {slot.formatted_timestamp} ({account.time_zone})
      </p>
      {holds ? <p id="slot-hold" class="notice" role="timer" hidden></p> : null}
      <form
        id="book-form"
        data-move={keep.move}
        data-token={keep.token}
        data-service={chosen.service.id}
        data-from={slot.timestamp}
        data-to={slot.timestamp_end}
        data-day={chosen.day}
      >
        <p id="form-error" class="error" role="alert" hidden></p>
        <button type="submit">{w.moveHere}</button>
        <noscript>
          <p class="notice">{w.needsJs}</p>
        </noscript>
      </form>
    </section>
  );
}

/** Joining a full slot's line (POST /waitlist); the script answers "you are in line" in its place. */
function WaitlistForm({ chosen, ctx }: { chosen: ChosenService; ctx: Ctx }) {
  const { w, account } = ctx;
  const slot = chosen.waitSlot!;
  return (
    <section aria-labelledby="wait-title">
      <h2 id="wait-title">{w.joinWaitlist}</h2>
      <p>
        <strong>{chosen.service.title}</strong>: {slot.formatted_timestamp} ({account.time_zone})
      </p>
      <p class="muted">{w.waitHint}</p>
      <form id="wait-form" data-service={chosen.service.id} data-from={slot.timestamp} data-to={slot.timestamp_end}>
        <label for="w-name">{w.name}</label>
        <input id="w-name" name="name" autocomplete="name" required maxlength={100} />
        <label for="w-email">{w.email}</label>
        <input id="w-email" name="email" type="email" autocomplete="email" required maxlength={200} />
        <p id="wait-error" class="error" role="alert" hidden></p>
        <button type="submit">{w.joinWaitlist}</button>
        <noscript>
          <p class="notice">{w.needsJs}</p>
        </noscript>
      </form>
    </section>
  );
}

function BookingSection({ booking, ctx }: { booking: BookingView | null; ctx: Ctx }) {
  const { w, account } = ctx;
  if (!booking)
    return (
      <section>
        <h1>{w.yourBooking}</h1>
        <p role="alert">{w.notFound}</p>
      </section>
    );
  const title = booking.service?.title ?? booking.title ?? "";
  const confirming = isConfirmingPayment(booking, ctx);
  // Not while its payment is being confirmed: a cancel then would race the payment it just made.
  const cancellable = booking.active && ctx.now <= booking.cancellable_until && account.allow_cancellation && !confirming;
  const ics = calendarText({
    name: account.name,
    product: "booking page",
    entries: [
      {
        uid: bookingUid(booking.id, ctx.host),
        from: booking.from,
        to: booking.to,
        title,
        location: account.name,
        sequence: booking.revision,
        status: "confirmed",
        stamp: booking.changed_at,
      },
    ],
  });
  return (
    <section aria-labelledby="booking-title" id="booking" data-booking-id={booking.id}>
      <h1 id="booking-title">{w.yourBooking}</h1>
      {ctx.moved && booking.active ? (
        <p class="notice" role="status" id="moved-notice">
          {w.moved}
        </p>
      ) : null}
      <dl>
        <dt>{w.service}</dt>
        <dd>{title}</dd>
        <dt>{w.time}</dt>
        <dd>
          {localText(booking.from, ctx)}–{localText(booking.to, ctx).slice(-5)} ({account.time_zone})
        </dd>
        <dt>{w.state}</dt>
        <dd>
          <span id="booking-state" data-state={booking.state}>
            {w.states[booking.state] ?? booking.state}
          </span>
        </dd>
        {booking.payment ? (
          <>
            <dt>{w.payment}</dt>
            <dd id="payment-line" data-status={booking.payment.status}>
              {paymentLine(booking.payment, booking.state, w)}
            </dd>
          </>
        ) : null}
      </dl>
      {booking.payment ? <PaymentStep booking={booking} confirming={confirming} ctx={ctx} /> : null}
      {booking.state === "awaiting_verification" ? (
        <form id="verify-form">
          <p>{w.codeHint}</p>
          <label for="f-code">{w.code}</label>
          <input id="f-code" name="verification_code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{5}" required maxlength={5} />
          <p id="verify-error" class="error" role="alert" hidden></p>
          <button type="submit">{w.verify}</button>
          <noscript>
            <p class="notice">{w.needsJs}</p>
          </noscript>
        </form>
      ) : null}
      {booking.state === "confirmed" ? (
        <p>
          <a id="ics-link" href={icsDataUrl(ics)} download={`booking-${booking.id}.ics`}>
            {w.addToCalendar}
          </a>
        </p>
      ) : null}
      {cancellable || (booking.movable && !confirming) ? (
        <p>
          {booking.movable && !confirming ? (
            <>
              <a id="move-link" class="button" href={link({ move: booking.id, token: ctx.token })}>
                {w.changeTime}
              </a>{" "}
            </>
          ) : null}
          {cancellable ? (
            <button type="button" id="cancel-button" class="secondary">
              {w.cancel}
            </button>
          ) : null}
          <span id="cancel-error" class="error" role="alert" hidden></span>
        </p>
      ) : null}
      {booking.state === "cancelled" ? <p role="status">{w.cancelled}</p> : null}
    </section>
  );
}

/** Back from a paid checkout while the server has not yet had the payment's event: the page waits for it. */
const isConfirmingPayment = (booking: BookingView, ctx: Ctx) => ctx.payment === "return" && booking.payment !== undefined && booking.state === "awaiting_payment";

/**
 * Paying for the booking (docs/decisions/booking-site.md, "Paid bookings on the page and in the
 * widget"). Unpaid: until when the time is held, and Pay to its checkout in this tab (the link
 * works without script; the script asks POST /bookings/{id}/checkout first, so a checkout that has
 * ended is replaced). Back from paying: "Confirming your payment…" while the server still waits
 * (the redirect proves nothing; the script polls and reloads), then the booking as the server
 * has it, with a sentence when the payment did not confirm it.
 */
function PaymentStep({ booking, confirming, ctx }: { booking: BookingView; confirming: boolean; ctx: Ctx }) {
  const { w } = ctx;
  const payment = booking.payment!;
  if (confirming) {
    return (
      <div>
        <p class="notice" role="status" id="payment-confirming">
          {w.confirmingPayment}
        </p>
        {/* An empty href is this very page: reading it again shows what the server has by then. */}
        <noscript>
          <p>
            {/* biome-ignore lint/a11y/useValidAnchor: reloads this page */}
            <a href="">{w.checkAgain}</a>
          </p>
        </noscript>
      </div>
    );
  }
  if (booking.state !== "awaiting_payment") {
    if (ctx.payment !== "return" || booking.state === "confirmed") return null;
    return booking.state === "awaiting_confirmation" ? (
      <p class="notice" role="status" id="payment-outcome">
        {w.paidAwaitingConfirmation}
      </p>
    ) : (
      <p class="notice" role="alert" id="payment-outcome">
        {w.paymentNotConfirmed}
      </p>
    );
  }
  return (
    <div id="pay">
      {ctx.payment === "cancelled" ? (
        <p class="notice" role="status" id="payment-cancelled">
          {w.paymentCancelled}
        </p>
      ) : null}
      {booking.expires !== null ? (
        <p>
          {w.heldUntil} {localText(booking.expires, ctx).slice(-5)}
        </p>
      ) : null}
      {payment.checkout_url ? (
        <a id="pay-link" class="button" href={payment.checkout_url}>
          {payText(payment, w)}
        </a>
      ) : (
        <button type="button" id="pay-link">
          {payText(payment, w)}
        </button>
      )}
      <p id="pay-error" class="error" role="alert" hidden></p>
    </div>
  );
}

/**
 * A waitlist offer (docs/decisions/booking-site.md, "The waitlist offer on the page"): the held
 * time and until when it is held, with Accept and Let it go while the offer stands; otherwise the
 * sentence for its state. An offer whose hold lapsed reads as expired before the cron records it.
 */
function OfferSection({ offer, ctx }: { offer: OfferView | null; ctx: Ctx }) {
  const { w, account } = ctx;
  if (!offer)
    return (
      <section>
        <h1>{w.offerTitle}</h1>
        <p role="alert" id="offer-invalid">
          {w.offerInvalid}
        </p>
      </section>
    );
  const open = offer.state === "offered" && offer.expiresAt !== null && offer.expiresAt > ctx.now;
  const state = offer.state === "offered" && !open ? "expired" : offer.state;
  return (
    <section aria-labelledby="offer-title" id="offer" data-entry-id={offer.id} data-state={state}>
      <h1 id="offer-title">{w.offerTitle}</h1>
      <dl>
        <dt>{w.service}</dt>
        <dd id="offer-service">{offer.serviceTitle}</dd>
        <dt>{w.time}</dt>
        <dd id="offer-time">
          {localText(offer.from, ctx)}–{localText(offer.to, ctx).slice(-5)} ({account.time_zone})
        </dd>
      </dl>
      {open ? (
        <div id="offer-actions">
          <p class="notice" id="offer-expires">
            {w.heldUntil} {localText(offer.expiresAt!, ctx).slice(-5)}
          </p>
          <p id="offer-error" class="error" role="alert" hidden></p>
          <button type="button" id="offer-accept">
            {w.accept}
          </button>{" "}
          <button type="button" id="offer-decline" class="secondary">
            {w.letGo}
          </button>
          <noscript>
            <p class="notice">{w.needsJs}</p>
          </noscript>
        </div>
      ) : (
        <p role="status" id="offer-state">
          {w.offerStates[state] ?? state}
        </p>
      )}
    </section>
  );
}
