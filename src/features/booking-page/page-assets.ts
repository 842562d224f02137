// The booking page's stylesheet and script, served as their own files so a strict CSP
// (`script-src 'self'`, `style-src 'self'`) allows them and no inline code is needed.
import { HOLD_JS } from "./hold-asset";

export const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
header,main{max-width:42rem;margin:0 auto;padding:0 1rem}
header{border-bottom:1px solid #d0d0d0}
.brand a{font-weight:700;font-size:1.25rem;color:#1a1a1a;text-decoration:none}
h1{font-size:1.5rem}h2{font-size:1.2rem}
a{color:#0a4fb5}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #0a4fb5;outline-offset:2px}
.muted{color:#4d4d4d}
ul.services,ul.slot-list{list-style:none;padding:0}
ul.services li{padding:.5rem 0;border-bottom:1px solid #e5e5e5}
ul.slot-list{display:flex;flex-wrap:wrap;gap:.5rem}
.slot{display:inline-block;min-width:4.5rem;padding:.5rem .75rem;border:1px solid #0a4fb5;border-radius:.4rem;text-align:center;text-decoration:none}
.slot.chosen,.day.chosen{background:#0a4fb5;color:#fff}
.slot.full{border-color:#bbb;color:#595959;background:#f2f2f2}
a.slot.full{border-color:#0a4fb5}
table{width:100%;border-collapse:collapse;table-layout:fixed}
th{font-weight:600;font-size:.85rem;color:#4d4d4d}
td{text-align:center;padding:.15rem}
.day{display:block;padding:.45rem 0;border-radius:.4rem}
a.day{font-weight:700;background:#e8effa;text-decoration:none}
.day.off{color:#767676}
.month-nav{display:flex;justify-content:space-between;margin:.5rem 0}
form{display:grid;gap:.35rem;max-width:26rem}
label{font-weight:600;margin-top:.5rem}
input{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:.3rem;width:100%}
button{font:inherit;margin-top:.75rem;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#0a4fb5;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#a51d1d;border:1px solid #a51d1d}
a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:.4rem;background:#0a4fb5;color:#fff;text-decoration:none;font-weight:600}
button[disabled]{opacity:.6;cursor:wait}
.error{color:#a51d1d;font-weight:600}
.notice{padding:.5rem .75rem;background:#fff4d6;border-left:4px solid #b27b00}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:400px){body{font-size:15px}.slot{min-width:4rem;padding:.45rem .5rem}dl{grid-template-columns:1fr}}
`;

// Plain ES5-style script without template literals, so it can live in this string as written.
// Slot holds (hold-asset.ts; comments here, not in the string, cost the bundle nothing): with
// #slot-hold in the form, the script holds the time on load and keeps the hold in sessionStorage.
// Leaving the page releases it (keepalive); the next page releases it again and waits before
// holding, so a reload's new hold cannot race that release for the same seat. A booking converts
// it (nothing left to release). A 400 (taken since the page was drawn) goes back to the day with
// its sentence; other refusals (holds off, too many holds) leave the form booking without a hold.
// Moving a booking (view.tsx, MoveForm): the booking form without the person, marked data-move,
// so holding works as for a booking; it PUTs /bookings/{id}/move with the token and goes to the
// booking's view (&moved=1). A time taken meanwhile goes back to the day, still moving; a refusal
// on state (too late, moves switched off meanwhile) says so in the page's words with the reason.
// Paid bookings (view.tsx, PaymentStep): Pay asks for the booking's open checkout (POST
// /bookings/{id}/checkout answers the same session while it is open, a new one once it has ended)
// and goes there in this tab; a 400 (paid or lapsed meanwhile) reloads to show it. Back from paying,
// "Confirming your payment…" polls the booking every 1.5 s and reloads once it no longer waits for
// its payment; a 404 reloads too (the page then says so), a 429 or 5xx waits for the next poll.
export const PAGE_JS = String.raw`(function () {
  "use strict";
  var main = document.getElementById("main");
  if (!main) return;
  var W = JSON.parse(main.getAttribute("data-words") || "{}");
  var query = new URLSearchParams(location.search);

  function api(method, path, body, token, header) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers[header || "X-Booking-Token"] = token;
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) { return { status: res.status, body: data }; });
    });
  }
  function say(el, text) { el.textContent = text || ""; el.hidden = !text; }
  function firstMessage(body) {
    for (var key in body) { var v = body[key]; if (typeof v === "string") return v; if (v && v.length) return v[0]; }
    return "";
  }
${HOLD_JS}
  function pop(key) { try { var value = sessionStorage.getItem(key); sessionStorage.removeItem(key); return value; } catch (e) { return null; } }
  function keep(key, value) { try { sessionStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  var left = pop("hold");
  var freed = holdRelease("", left && JSON.parse(left));
  var refused = pop("hold-refused");
  var notice = document.getElementById("taken-notice");
  if (refused && notice) notice.textContent += " (" + refused + ")";

  var form = document.getElementById("book-form");
  if (form) {
    var phone = form.elements.namedItem("phone_number");
    var error = document.getElementById("form-error");
    var button = form.querySelector("button");
    var clock = document.getElementById("slot-hold");
    var held = null;
    var moving = form.dataset.move;
    var moveParams = moving ? "&move=" + moving + "&token=" + encodeURIComponent(form.dataset.token) : "";
    var backToDay = function () { location.assign("/?service=" + form.dataset.service + "&day=" + form.dataset.day + "&taken=1" + moveParams); };
    var hold = function () {
      button.disabled = true;
      freed.then(function () {
        return api("POST", "/slots/holds", { slot_hold: { service_id: Number(form.dataset.service), booked_from: form.dataset.from, booked_to: form.dataset.to } });
      }).then(function (r) {
        button.disabled = false;
        if (r.status < 300) { held = holdOf(r.body); keep("hold", JSON.stringify(held)); holdClock(clock, held); }
        if (r.status === 400) { keep("hold-refused", firstMessage(r.body)); backToDay(); }
      }, function () { button.disabled = false; });
    };
    if (clock) {
      hold();
      addEventListener("pagehide", function () { holdRelease("", held, true); held = null; });
      addEventListener("pageshow", function (event) { if (event.persisted) hold(); });
    }
    if (phone) phone.addEventListener("input", function () { phone.setCustomValidity(""); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (moving) {
        button.disabled = true;
        say(error, "");
        api("PUT", "/bookings/" + moving + "/move", { booking: { booked_from: form.dataset.from, booked_to: form.dataset.to }, hold_secret: held ? held.secret : undefined },
          form.dataset.token).then(function (r) {
          if (r.status === 200) { held = null; pop("hold"); location.assign("/?booking=" + moving + "&token=" + encodeURIComponent(form.dataset.token) + "&moved=1"); return; }
          if (r.status === 400 && r.body.booked_from && /fully booked/.test(r.body.booked_from[0])) { backToDay(); return; }
          button.disabled = false;
          say(error, r.status === 400 && r.body.state ? W.moveClosed + " (" + r.body.state[0] + ")" : firstMessage(r.body) || W.failed);
        }, function () { button.disabled = false; say(error, W.failed); });
        return;
      }
      var number = phone.value.replace(/[\s()-]/g, "");
      if (number && !/^\+[1-9][0-9]{6,14}$/.test(number)) { phone.setCustomValidity(W.phoneInvalid); phone.reportValidity(); return; }
      var person = { name: form.elements.namedItem("name").value, email: form.elements.namedItem("email").value };
      if (number) person.phone_number = number;
      button.disabled = true;
      say(error, "");
      api("POST", "/bookings", { booking: { service_id: Number(form.dataset.service), booked_from: form.dataset.from, booked_to: form.dataset.to, person_attributes: person },
        hold_secret: held ? held.secret : undefined })
        .then(function (r) {
          if (r.status === 200) {
            held = null;
            pop("hold");
            try { localStorage.setItem("booking-token:" + r.body.booking.id, r.body.booking_token); } catch (e) { /* private mode */ }
            location.assign("/?booking=" + r.body.booking.id + "&token=" + encodeURIComponent(r.body.booking_token));
            return;
          }
          // Someone else took the last seat: show the day again, fresh, with a notice.
          if (r.status === 400 && r.body.booked_from) {
            backToDay();
            return;
          }
          button.disabled = false;
          say(error, firstMessage(r.body) || W.failed);
        }, function () { button.disabled = false; say(error, W.failed); });
    });
  }

  var wait = document.getElementById("wait-form");
  if (wait) {
    var waitError = document.getElementById("wait-error");
    var waitButton = wait.querySelector("button");
    wait.addEventListener("submit", function (event) {
      event.preventDefault();
      waitButton.disabled = true;
      say(waitError, "");
      api("POST", "/waitlist", { waitlist_entry: { service_id: Number(wait.dataset.service), booked_from: wait.dataset.from, booked_to: wait.dataset.to,
        person_attributes: { name: wait.elements.namedItem("name").value, email: wait.elements.namedItem("email").value } } })
        .then(function (r) {
          if (r.status === 200) {
            var note = document.createElement("p");
            note.setAttribute("role", "status");
            note.className = "notice";
            note.id = "in-line";
            note.textContent = W.inLine;
            wait.replaceWith(note);
            return;
          }
          waitButton.disabled = false;
          say(waitError, firstMessage(r.body) || W.failed);
        }, function () { waitButton.disabled = false; say(waitError, W.failed); });
    });
  }

  var offer = document.getElementById("offer-actions");
  if (offer) {
    var entry = "/waitlist/" + document.getElementById("offer").getAttribute("data-entry-id");
    var offerError = document.getElementById("offer-error");
    var offerButtons = offer.querySelectorAll("button");
    var answer = function (method, path, done) {
      for (var i = 0; i < offerButtons.length; i++) offerButtons[i].disabled = true;
      say(offerError, "");
      api(method, path, null, query.get("offer"), "X-Waitlist-Token").then(function (r) {
        if (r.status === 200) { done(r.body); return; }
        if (r.status === 400 || r.status === 404) { location.reload(); return; }
        for (var i = 0; i < offerButtons.length; i++) offerButtons[i].disabled = false;
        say(offerError, firstMessage(r.body) || W.failed);
      }, function () { for (var i = 0; i < offerButtons.length; i++) offerButtons[i].disabled = false; say(offerError, W.failed); });
    };
    document.getElementById("offer-accept").addEventListener("click", function () {
      answer("POST", entry + "/accept", function (body) {
        try { localStorage.setItem("booking-token:" + body.booking.id, body.booking_token); } catch (e) { /* private mode */ }
        location.assign("/?booking=" + body.booking.id + "&token=" + encodeURIComponent(body.booking_token));
      });
    });
    document.getElementById("offer-decline").addEventListener("click", function () {
      answer("DELETE", entry, function () {
        var note = document.createElement("p");
        note.setAttribute("role", "status");
        note.id = "offer-state";
        note.textContent = W.offerPassed;
        offer.replaceWith(note);
      });
    });
  }

  var booking = document.getElementById("booking");
  if (!booking) return;
  var id = booking.getAttribute("data-booking-id");
  var token = query.get("token");
  try { token = token || localStorage.getItem("booking-token:" + id); } catch (e) { /* private mode */ }

  var verify = document.getElementById("verify-form");
  if (verify) {
    var verifyError = document.getElementById("verify-error");
    var verifyButton = verify.querySelector("button");
    verify.addEventListener("submit", function (event) {
      event.preventDefault();
      verifyButton.disabled = true;
      api("PUT", "/bookings/" + id + "/verify_code", { verification_code: verify.elements.namedItem("verification_code").value.trim() }, token)
        .then(function (r) {
          if (r.status === 200) { location.reload(); return; }
          verifyButton.disabled = r.status === 429;
          say(verifyError, r.status === 429 ? W.tooManyTries : r.status === 400 && r.body.verification_code ? W.wrongCode : firstMessage(r.body) || W.failed);
        }, function () { verifyButton.disabled = false; say(verifyError, W.failed); });
    });
  }

  if (document.getElementById("payment-confirming")) {
    var poll = function () {
      setTimeout(function () {
        api("GET", "/bookings/" + id, null, token).then(function (r) {
          var waiting = r.status === 429 || r.status >= 500 || (r.status === 200 && r.body.booking.state === "awaiting_payment");
          if (waiting) poll(); else location.reload();
        }, poll);
      }, 1500);
    };
    poll();
  }

  var pay = document.getElementById("pay-link");
  if (pay) {
    var payError = document.getElementById("pay-error");
    var paying = false;
    pay.addEventListener("click", function (event) {
      event.preventDefault();
      if (paying) return;
      paying = true;
      say(payError, "");
      api("POST", "/bookings/" + id + "/checkout", null, token).then(function (r) {
        var url = r.status === 200 && r.body.booking.payment && r.body.booking.payment.checkout_url;
        if (url) { location.assign(url); return; }
        if (r.status === 400) { location.reload(); return; }
        paying = false;
        say(payError, firstMessage(r.body) || W.failed);
      }, function () { paying = false; say(payError, W.failed); });
    });
  }

  var cancel = document.getElementById("cancel-button");
  if (cancel) {
    var cancelError = document.getElementById("cancel-error");
    cancel.addEventListener("click", function () {
      cancel.disabled = true;
      api("PUT", "/bookings/" + id + "/cancel", {}, token).then(function (r) {
        if (r.status === 200) { location.reload(); return; }
        cancel.disabled = false;
        say(cancelError, firstMessage(r.body) || W.failed);
      }, function () { cancel.disabled = false; say(cancelError, W.failed); });
    });
  }
})();
`;
