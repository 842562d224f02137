// Twilio's request signature as Twilio's own documentation signs its example request: the
// verifier of twilio-events.ts must compute exactly these, or no real callback would verify.
import { describe, expect, it } from "vitest";
import { twilioSignature } from "../../../src/features/messages/twilio-events";

describe("twilioSignature", () => {
  const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
  it.each([
    ["+14158675310", "GvWf1cFY/Q7PnoempGyD5oXAezc="],
    ["+14158675309", "RSOYDt4T1cUTdK1PDd93/VVr8B8="],
  ])("signs Twilio's documented example (caller %s) as Twilio does", async (caller, expected) => {
    const params = { CallSid: "CA1234567890ABCDE", Caller: caller, Digits: "1234", From: caller, To: "+18005551212" };
    expect(await twilioSignature("12345", url, params)).toBe(expected);
  });
});
