// The embeddable widget: `<booking-widget service-id="…">`, a custom element in a shadow root that
// talks only to the booking site it was loaded from (its script's origin) through the public API.
import { HOLD_JS } from "./hold-asset";
import { PAYMENT_JS } from "./payment-line";
import type { Words } from "./words";

/**
 * The script, with the account's words and zone, whether it holds slots and whether a full slot
 * offers its waitlist prepended (one file per booking site).
 */
export const widgetScript = (w: Words, timeZone: string, holds: boolean, waitlist: boolean, moves: boolean) =>
  `(function (W, ZONE, HOLDS, WAITLIST, MOVES) {\n${WIDGET_BODY}\n})(${JSON.stringify(w)}, ${JSON.stringify(timeZone)}, ${holds}, ${waitlist}, ${moves});\n`;

// Plain ES2017 without template literals, so it can live in this string as written.
// Slot holds (hold-asset.ts), when HOLDS: a picked time is held before the form opens; a 400 goes
// back to the day with its sentence, other refusals (holds off, too many) open the form without a
// hold. Back releases it and then reads the day's slots, so the time shows free again; leaving the
// host page releases it with keepalive; a booking converts it (nothing left to release).
// Waitlist, when WAITLIST: a full slot opens a name and e-mail form that posts POST /waitlist, as
// the page's day view does; its waitlist_token is not kept (the offer comes with its own secret).
// Moves, when MOVES (the account's allow_rescheduling, else allow_cancellation): "Change time" beside
// Cancel opens the same calendar; a picked time is held as for a booking, and "Move to this time"
// PUTs /bookings/{id}/move with the token kept in memory. A time taken meanwhile shows the day again
// with a notice that the booking keeps its time; a refusal on state (too late) says so.
// Paid bookings: the booking shows its payment line, and while unpaid "Pay 450.00 NOK", a link to
// the checkout in the host page's own tab (target _top, also out of a frame: Stripe's checkout
// cannot be framed). Not a new window: the checkout's success and cancel pages are the booking
// site's page for this booking (payments/checkout.ts), which confirms the payment with the server,
// so the visitor ends there either way; a second window would leave this one showing the booking
// unpaid. A cancel's answer already shows the refund it made.
const WIDGET_BODY = String.raw`"use strict";
var script = document.currentScript;
var ORIGIN = script ? new URL(script.src).origin : location.origin;
var CSS = ":host{display:block;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;max-width:32rem}" +
  "button{font:inherit;cursor:pointer;border-radius:.4rem;border:1px solid #0a4fb5;background:#fff;color:#0a4fb5;padding:.4rem .6rem;margin:.15rem}" +
  "button.primary{background:#0a4fb5;color:#fff}button[disabled]{color:#595959;border-color:#bbb;background:#f2f2f2;cursor:default}" +
  "button:focus-visible,input:focus-visible{outline:3px solid #0a4fb5;outline-offset:2px}" +
  ".days,.slots{display:flex;flex-wrap:wrap}label{display:block;font-weight:600;margin-top:.5rem}" +
  "input{font:inherit;padding:.45rem;border:1px solid #767676;border-radius:.3rem;width:100%;box-sizing:border-box}" +
  "a.pay{display:inline-block;background:#0a4fb5;color:#fff;border-radius:.4rem;padding:.4rem .8rem;margin:.15rem;text-decoration:none;font-weight:600}" +
  ".error{color:#a51d1d;font-weight:600}.notice{background:#fff4d6;padding:.4rem .6rem}.muted{color:#4d4d4d}nav{display:flex;justify-content:space-between}";
var E164 = /^\+[1-9][0-9]{6,14}$/;

function el(tag, attrs, children) {
  var node = document.createElement(tag);
  for (var k in attrs || {}) {
    if (k === "text") node.textContent = attrs[k];
    else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== undefined && attrs[k] !== false) node.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
  }
  (children || []).forEach(function (c) { if (c) node.appendChild(c); });
  return node;
}
function api(method, path, body, token) {
  var headers = { "Content-Type": "application/json" };
  if (token) headers["X-Booking-Token"] = token;
  return fetch(ORIGIN + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (res) {
    return res.json().catch(function () { return {}; }).then(function (data) { return { status: res.status, body: data }; });
  });
}
function firstMessage(body) {
  for (var key in body) { var v = body[key]; if (typeof v === "string") return v; if (v && v.length) return v[0]; }
  return W.failed;
}
function pad(n) { return n < 10 ? "0" + n : String(n); }
${HOLD_JS}
${PAYMENT_JS}
class BookingWidget extends HTMLElement {
  connectedCallback() {
    if (this.root) return;
    this.root = this.attachShadow({ mode: "open" });
    try { var sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); this.root.adoptedStyleSheets = [sheet]; }
    catch (e) { this.root.appendChild(el("style", { text: CSS })); }
    this.view = el("div", { "aria-live": "polite" });
    this.root.appendChild(this.view);
    this.serviceId = Number(this.getAttribute("service-id"));
    var now = new Date();
    this.month = now.getFullYear() + "-" + pad(now.getMonth() + 1);
    var self = this;
    if (HOLDS) addEventListener("pagehide", function () { self.release(true); });
    api("GET", "/services/" + this.serviceId).then(function (r) {
      if (r.status !== 200) return self.show([el("p", { class: "error", text: W.failed })]);
      self.service = r.body.service;
      self.showMonth();
    });
  }
  show(nodes) {
    this.view.replaceChildren.apply(this.view, [el("h2", { text: this.service ? this.service.title : "" })].concat(nodes.filter(Boolean)));
  }
  showMonth(notice) {
    var self = this;
    var parts = this.month.split("-").map(Number);
    var last = new Date(Date.UTC(parts[0], parts[1], 0)).getUTCDate();
    api("GET", "/services/" + this.serviceId + "/available_dates?from=" + this.month + "-01&to=" + this.month + "-" + pad(last)).then(function (r) {
      var dates = r.status === 200 ? r.body.map(function (e) { return e.available_date.date; }) : [];
      var shift = function (by) { return function () { var d = new Date(Date.UTC(parts[0], parts[1] - 1 + by, 1)); self.month = d.toISOString().slice(0, 7); self.showMonth(); }; };
      var days = el("div", { class: "days", role: "group", "aria-label": W.chooseDay });
      dates.forEach(function (date) {
        days.appendChild(el("button", { type: "button", "data-date": date, "aria-label": Number(date.slice(8)) + " " + W.months[parts[1] - 1],
          text: String(Number(date.slice(8))), onclick: function () { self.showDay(date); } }));
      });
      self.show([
        self.moving ? el("button", { type: "button", class: "keep", text: "← " + W.keepTime, onclick: function () { self.moving = false; self.release().then(function () { self.showBooking(); }); } }) : null,
        self.moving ? el("h3", { text: W.moveTitle }) : null,
        notice ? el("p", { class: "notice", role: "alert", text: notice }) : null,
        el("nav", {}, [el("button", { type: "button", text: "←", "aria-label": W.prevMonth, onclick: shift(-1) }),
          el("strong", { text: W.months[parts[1] - 1] + " " + parts[0] }),
          el("button", { type: "button", text: "→", "aria-label": W.nextMonth, onclick: shift(1) })]),
        el("p", { text: W.chooseDay }), days, dates.length ? null : el("p", { text: W.noDays }),
      ]);
    });
  }
  showDay(date, notice) {
    var self = this;
    this.day = date;
    api("GET", "/services/" + this.serviceId + "/slots?from=" + date + "&to=" + date).then(function (r) {
      var slots = r.status === 200 ? r.body.map(function (e) { return e.slot; }) : [];
      var list = el("div", { class: "slots", role: "group", "aria-label": W.chooseTime });
      slots.forEach(function (s) {
        var time = s.timestamp.slice(11, 16);
        list.appendChild(s.free > 0
          ? el("button", { type: "button", class: "slot", "data-timestamp": s.timestamp, text: time, onclick: function () { self.pick(s); } })
          : WAITLIST && !self.moving ? el("button", { type: "button", class: "slot full wait", "data-wait": s.timestamp, text: time + " " + W.taken + " · " + W.joinShort,
            onclick: function () { self.showWait(s); } })
          : el("button", { type: "button", class: "slot full", disabled: true, text: time + " " + W.taken }));
      });
      self.show([
        notice ? el("p", { class: "notice", role: "alert", text: notice }) : null,
        el("button", { type: "button", text: "← " + W.back, onclick: function () { self.showMonth(); } }),
        el("h3", { text: W.chooseTime + ": " + Number(date.slice(8)) + " " + W.months[Number(date.slice(5, 7)) - 1] }),
        el("p", { class: "muted", text: W.timesIn + " " + ZONE }), list, slots.length ? null : el("p", { text: W.noSlots }),
      ]);
    });
  }
  release(keepalive) {
    var hold = this.hold;
    this.hold = null;
    return holdRelease(ORIGIN, hold, keepalive);
  }
  pick(slot) {
    var self = this;
    if (!HOLDS) return this.showForm(slot);
    this.release().then(function () {
      return api("POST", "/slots/holds", { slot_hold: { service_id: self.serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end } });
    }).then(function (r) {
      if (r.status === 400) return self.showDay(self.day, (self.moving ? W.moveTaken : W.justTaken) + " (" + firstMessage(r.body) + ")");
      if (r.status < 300) self.hold = holdOf(r.body);
      self.showForm(slot);
    }, function () { self.showForm(slot); });
  }
  showForm(slot) {
    var self = this;
    var clock = this.hold && el("p", { class: "notice", role: "timer" });
    if (this.moving) return this.showMove(slot, clock);
    var error = el("p", { class: "error", role: "alert", hidden: true });
    var name = el("input", { id: "w-name", name: "name", autocomplete: "name", required: true });
    var email = el("input", { id: "w-email", name: "email", type: "email", autocomplete: "email", required: true });
    var phone = el("input", { id: "w-phone", name: "phone_number", type: "tel", autocomplete: "tel", title: W.phoneHint });
    var submit = el("button", { type: "submit", class: "primary", text: W.book });
    var form = el("form", { onsubmit: function (event) {
      event.preventDefault();
      var number = phone.value.replace(/[\s()-]/g, "");
      if (number && !E164.test(number)) { phone.setCustomValidity(W.phoneInvalid); phone.reportValidity(); return; }
      var person = { name: name.value, email: email.value };
      if (number) person.phone_number = number;
      submit.disabled = true;
      api("POST", "/bookings", { booking: { service_id: self.serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end, person_attributes: person },
        hold_secret: self.hold ? self.hold.secret : undefined }).then(function (r) {
        if (r.status === 200) { self.hold = null; self.booking = r.body.booking; self.token = r.body.booking_token; return self.showBooking(); }
        if (r.status === 400 && r.body.booked_from) return self.showDay(self.day, W.justTaken);
        submit.disabled = false; error.hidden = false; error.textContent = firstMessage(r.body);
      }, function () { submit.disabled = false; error.hidden = false; error.textContent = W.failed; });
    } }, [
      el("label", { for: "w-name", text: W.name }), name, el("label", { for: "w-email", text: W.email }), email,
      el("label", { for: "w-phone", text: W.phone }), phone, el("p", { class: "muted", text: W.phoneHint }), error, submit,
    ]);
    phone.addEventListener("input", function () { phone.setCustomValidity(""); });
    this.show([el("button", { type: "button", text: "← " + W.back, onclick: function () { self.release().then(function () { self.showDay(self.day); }); } }),
      el("p", {}, [el("strong", { text: slot.formatted_timestamp }), document.createTextNode(" (" + ZONE + ")")]), clock, form]);
    if (clock) holdClock(clock, this.hold);
  }
  showMove(slot, clock) {
    var self = this;
    var b = this.booking;
    var error = el("p", { class: "error", role: "alert", hidden: true });
    var submit = el("button", { type: "submit", class: "primary move", text: W.moveHere });
    var form = el("form", { onsubmit: function (event) {
      event.preventDefault();
      submit.disabled = true;
      api("PUT", "/bookings/" + b.id + "/move", { booking: { booked_from: slot.timestamp, booked_to: slot.timestamp_end }, hold_secret: self.hold ? self.hold.secret : undefined },
        self.token).then(function (r) {
        if (r.status === 200) { self.hold = null; self.moving = false; self.booking = r.body.booking; return self.showBooking(W.moved); }
        if (r.status === 400 && r.body.booked_from && /fully booked/.test(r.body.booked_from[0])) return self.showDay(self.day, W.moveTaken);
        submit.disabled = false; error.hidden = false;
        error.textContent = r.status === 400 && r.body.state ? W.moveClosed + " (" + r.body.state[0] + ")" : firstMessage(r.body);
      }, function () { submit.disabled = false; error.hidden = false; error.textContent = W.failed; });
    } }, [error, submit]);
    this.show([el("button", { type: "button", text: "← " + W.back, onclick: function () { self.release().then(function () { self.showDay(self.day); }); } }),
      el("h3", { text: W.moveHere }),
      el("p", {}, [el("strong", { text: slot.formatted_timestamp }), document.createTextNode(" (" + ZONE + ")")]), clock, form]);
    if (clock) holdClock(clock, this.hold);
  }
  showWait(slot) {
    var self = this;
    var error = el("p", { class: "error", role: "alert", hidden: true });
    var name = el("input", { id: "w-name", name: "name", autocomplete: "name", required: true });
    var email = el("input", { id: "w-email", name: "email", type: "email", autocomplete: "email", required: true });
    var submit = el("button", { type: "submit", class: "primary", text: W.joinWaitlist });
    var form = el("form", { class: "wait", onsubmit: function (event) {
      event.preventDefault();
      submit.disabled = true;
      api("POST", "/waitlist", { waitlist_entry: { service_id: self.serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end,
        person_attributes: { name: name.value, email: email.value } } }).then(function (r) {
        if (r.status === 200) return form.replaceWith(el("p", { class: "in-line", role: "status", text: W.inLine }));
        submit.disabled = false; error.hidden = false; error.textContent = firstMessage(r.body.person_attributes || r.body);
      }, function () { submit.disabled = false; error.hidden = false; error.textContent = W.failed; });
    } }, [el("label", { for: "w-name", text: W.name }), name, el("label", { for: "w-email", text: W.email }), email, error, submit]);
    this.show([el("button", { type: "button", text: "← " + W.back, onclick: function () { self.showDay(self.day); } }),
      el("h3", { text: W.joinWaitlist }),
      el("p", {}, [el("strong", { text: slot.formatted_timestamp }), document.createTextNode(" (" + ZONE + ")")]),
      el("p", { class: "muted", text: W.waitHint }), form]);
  }
  showBooking(notice) {
    var self = this;
    var b = this.booking;
    var nodes = [el("h3", { text: W.yourBooking }), notice ? el("p", { class: "notice moved", role: "status", text: notice }) : null,
      el("p", { text: b.booked_from.slice(0, 10) + " " + b.booked_from.slice(11, 16) + "–" + b.booked_to.slice(11, 16) + " (" + ZONE + ")" }),
      el("p", {}, [document.createTextNode(W.state + ": "), el("strong", { class: "state", "data-state": b.state, text: W.states[b.state] || b.state })])];
    if (b.payment) {
      nodes.push(el("p", {}, [document.createTextNode(W.payment + ": "),
        el("strong", { class: "payment", "data-status": b.payment.status, text: paymentLine(b.payment, b.state) })]));
    }
    if (b.state === "awaiting_payment" && b.payment && b.payment.checkout_url) {
      nodes.push(el("p", {}, [el("a", { class: "pay", href: b.payment.checkout_url, target: "_top", text: payText(b.payment) })]));
    }
    if (b.state === "awaiting_verification") {
      var error = el("p", { class: "error", role: "alert", hidden: true });
      var code = el("input", { id: "w-code", name: "verification_code", inputmode: "numeric", autocomplete: "one-time-code", pattern: "[0-9]{5}", required: true });
      var submit = el("button", { type: "submit", class: "primary", text: W.verify });
      nodes.push(el("form", { onsubmit: function (event) {
        event.preventDefault();
        submit.disabled = true;
        api("PUT", "/bookings/" + b.id + "/verify_code", { verification_code: code.value.trim() }, self.token).then(function (r) {
          if (r.status === 200) { self.booking = r.body.booking; return self.showBooking(); }
          submit.disabled = r.status === 429; error.hidden = false;
          error.textContent = r.status === 429 ? W.tooManyTries : r.body.verification_code ? W.wrongCode : firstMessage(r.body);
        });
      } }, [el("p", { text: W.codeHint }), el("label", { for: "w-code", text: W.code }), code, error, submit]));
    }
    // Change time: the same calendar, then PUT /bookings/{id}/move (appointments; an event moves through the API).
    if (MOVES && b.active && b.state !== "awaiting_payment" && !b.event_id) {
      nodes.push(el("button", { type: "button", class: "change primary", text: W.changeTime, onclick: function () { self.moving = true; self.showMonth(); } }));
    }
    if (b.active) {
      var cancelError = el("p", { class: "error", role: "alert", hidden: true });
      nodes.push(el("button", { type: "button", class: "cancel", text: W.cancel, onclick: function (event) {
        event.target.disabled = true;
        api("PUT", "/bookings/" + b.id + "/cancel", {}, self.token).then(function (r) {
          if (r.status === 200) { self.booking = r.body.booking; return self.showBooking(); }
          event.target.disabled = false; cancelError.hidden = false; cancelError.textContent = firstMessage(r.body);
        });
      } }), cancelError);
    }
    if (b.state === "cancelled") nodes.push(el("p", { role: "status", text: W.cancelled }));
    // The booking page has the .ics file and stays reachable after this page is closed.
    nodes.push(el("p", {}, [el("a", { href: ORIGIN + "/?booking=" + b.id + "&token=" + encodeURIComponent(self.token), target: "_blank", rel: "noopener",
      text: W.yourBooking + (b.state === "confirmed" ? " · " + W.addToCalendar : "") })]));
    this.show(nodes);
  }
}
if (!customElements.get("booking-widget")) customElements.define("booking-widget", BookingWidget);`;
