// The slot-hold functions the page's script and the widget's script both include (their `W` is in
// scope): read a hold's answer, count it down, release it (docs/decisions/booking-site.md, "Slot holds").
//
// The countdown runs on the hold's length as the server measured it (expires_at − created_at),
// from the moment its answer arrived on the visitor's clock: a visitor's clock that is wrong by
// minutes cannot end the hold early or late; only the answer's travel time shifts it.

// Plain ES5-style script without template literals, like the scripts it joins.
export const HOLD_JS = String.raw`
  function holdOf(body) {
    var h = body.slot_hold;
    return { id: h.id, secret: body.hold_secret, ends: Date.now() + Date.parse(h.expires_at) - Date.parse(h.created_at) };
  }
  function holdRelease(origin, hold, keepalive) {
    return hold ? fetch(origin + "/slots/holds/" + hold.id, { method: "DELETE", headers: { "X-Hold-Secret": hold.secret }, keepalive: keepalive })
      .catch(Boolean) : Promise.resolve();
  }
  function holdClock(node, hold) {
    var timer = setInterval(tick, 500);
    function tick() {
      var s = Math.ceil((hold.ends - Date.now()) / 1000);
      if (s < 1 || !node.isConnected) clearInterval(timer);
      if (s < 1) node.setAttribute("role", "alert");
      node.textContent = s > 0 ? W.holdFor + " " + Math.floor(s / 60) + ":" + String(100 + s % 60).slice(1) : W.holdLapsed;
    }
    node.hidden = false;
    tick();
  }
`;
