// GET /favicon.ico on every host: browsers ask for it on every visit of the booking page and the
// reference page, and logged the 404 (issue 20). A 32×32 icon of 175 bytes, kept in the code so no
// static-asset layer sits in front of every request (docs/decisions/booking-site.md).
import type { Context } from "hono";

const ICON = Uint8Array.from(
  atob(
    "AAABAAEAICAAAAEAIACZAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAGBJREFUeNpjYBhMgMt/63964MHnAHpZjNMhow4gVgMIUEPNqAOIdsCFOx9QMAigixGjZvg4gFw8dB1ALUCRA9AdQyp/6DtgwKNgNA2MpoHRNDCy08Boo3TkOGC0bziQAACQSddDKz2f6gAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

export const favicon = (c: Context) => c.body(ICON, 200, { "content-type": "image/vnd.microsoft.icon", "cache-control": "public, max-age=86400" });
