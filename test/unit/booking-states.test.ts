import { describe, expect, it } from "vitest";
import { BOOKING_STATES, effectiveState, initialState, isActive, nextState } from "../../src/domain/booking-states";

const manual = { confirmManually: true };
const auto = { confirmManually: false };

describe("initialState", () => {
  it("confirms at once with confirm=true, even when verification is on", () =>
    expect(initialState({ confirm: true, verificationRequired: true, confirmManually: true })).toBe("confirmed"));
  it("awaits verification with confirm=false when the account verifies", () =>
    expect(initialState({ confirm: false, verificationRequired: true, confirmManually: false })).toBe("awaiting_verification"));
  it("awaits confirmation with confirm=false when an administrator confirms", () =>
    expect(initialState({ confirm: false, verificationRequired: false, confirmManually: true })).toBe("awaiting_confirmation"));
  it("confirms with confirm=false when nothing else is required", () =>
    expect(initialState({ confirm: false, verificationRequired: false, confirmManually: false })).toBe("confirmed"));
});

describe("nextState", () => {
  it("follows the spec's table", () => {
    expect(nextState("verify", "awaiting_verification", auto)).toBe("confirmed");
    expect(nextState("verify", "awaiting_verification", manual)).toBe("awaiting_confirmation");
    expect(nextState("confirm", "awaiting_confirmation", auto)).toBe("confirmed");
    expect(nextState("decline", "awaiting_confirmation", auto)).toBe("declined");
    expect(nextState("cancel", "confirmed", auto)).toBe("cancelled");
    expect(nextState("expire", "awaiting_verification", auto)).toBe("verification_expired");
  });

  it("allows delete from every state", () => {
    for (const state of BOOKING_STATES) expect(nextState("delete", state, auto)).toBe("deleted");
  });

  it("refuses transitions outside the table", () => {
    expect(nextState("confirm", "cancelled", auto)).toBeNull();
    expect(nextState("confirm", "confirmed", auto)).toBeNull();
    expect(nextState("verify", "confirmed", auto)).toBeNull();
    expect(nextState("decline", "confirmed", auto)).toBeNull();
    expect(nextState("cancel", "declined", auto)).toBeNull();
    expect(nextState("cancel", "verification_expired", auto)).toBeNull();
    expect(nextState("expire", "confirmed", auto)).toBeNull();
  });
});

describe("effectiveState", () => {
  const now = 1_000_000;
  it("reads an unverified booking past expires_at as expired and inactive", () => {
    const booking = { state: "awaiting_verification", expires_at: now };
    expect(effectiveState(booking, now)).toBe("verification_expired");
    expect(isActive(booking, now)).toBe(false);
  });
  it("keeps an unverified booking active until expires_at", () => expect(isActive({ state: "awaiting_verification", expires_at: now + 1 }, now)).toBe(true));
  it("ignores expires_at once the booking is verified", () => expect(effectiveState({ state: "confirmed", expires_at: now - 1 }, now)).toBe("confirmed"));
});
