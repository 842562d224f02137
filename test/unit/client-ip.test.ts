import { describe, expect, it } from "vitest";
import { LOCAL_CLIENT, rateLimitKey } from "../../src/http/client-ip";

describe("rateLimitKey", () => {
  it("keys an IPv4 address by itself", () => expect(rateLimitKey("203.0.113.7")).toBe("203.0.113.7"));

  it("keys requests without CF-Connecting-IP to the shared local budget", () => {
    expect(rateLimitKey(undefined)).toBe(LOCAL_CLIENT);
    expect(rateLimitKey(" ")).toBe(LOCAL_CLIENT);
  });

  it("keys IPv6 by its /64, whatever the spelling", () => {
    expect(rateLimitKey("2001:db8:aa:1::1")).toBe("2001:db8:aa:1::/64");
    expect(rateLimitKey("2001:0DB8:00aa:0001:ffff:0:0:9")).toBe("2001:db8:aa:1::/64");
    expect(rateLimitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitKey("::1")).toBe("0:0:0:0::/64");
  });

  it("keys an IPv4-mapped IPv6 address as the IPv4 address", () => expect(rateLimitKey("::ffff:203.0.113.7")).toBe("203.0.113.7"));

  it("keeps text it cannot read as its own key rather than merging it with others", () => expect(rateLimitKey("2001:db8::1::2")).toBe("2001:db8::1::2"));
});
