import { describe, expect, it } from "vitest";
import { badConfig, ConfigError, configOf } from "../../../src/config";

describe("configOf", () => {
  it("applies the defaults when nothing is set, and treats an empty value as unset", () => {
    const expected = {
      ROOT_DOMAIN: "localhost",
      RATE_LIMIT_REQUESTS: 80,
      RATE_LIMIT_WINDOW_SECONDS: 20,
      RATE_LIMIT_KEY_REQUESTS: 240,
      SMS_DAILY_CAP_PER_ACCOUNT: 500,
      MESSAGE_PROVIDER: "sink",
    };
    expect(configOf({})).toMatchObject(expected);
    expect(configOf({ ROOT_DOMAIN: "", RATE_LIMIT_REQUESTS: "", MESSAGE_PROVIDER: "" })).toMatchObject(expected);
  });

  it("reads numbers, the provider kind and URLs as their types", () => {
    expect(
      configOf({
        RATE_LIMIT_REQUESTS: "1000000",
        RATE_LIMIT_WINDOW_SECONDS: "60",
        SMS_DAILY_CAP_PER_ACCOUNT: "0",
        MESSAGE_PROVIDER: "http",
        SMS_PROVIDER_URL: "https://sms.example/send",
        ENVIRONMENT: "dev",
      }),
    ).toMatchObject({
      RATE_LIMIT_REQUESTS: 1_000_000,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      SMS_DAILY_CAP_PER_ACCOUNT: 0,
      MESSAGE_PROVIDER: "http",
      SMS_PROVIDER_URL: "https://sms.example/send",
      ENVIRONMENT: "dev",
    });
  });

  it("reads PERSONAL_DATA_KEYS as a key ring, the first key current; unset keeps numbers plain; a bad ring is refused without its value", () => {
    const k2 = Buffer.alloc(32, 2).toString("base64");
    const k1 = Buffer.alloc(32, 1).toString("base64");
    expect(configOf({}).PERSONAL_DATA_KEYS).toBeNull();
    const keys = configOf({ PERSONAL_DATA_KEYS: ` k2:${k2}, k1:${k1} ` }).PERSONAL_DATA_KEYS!;
    expect(keys.current.id).toBe("k2");
    expect(keys.all.map((k) => k.id)).toEqual(["k2", "k1"]);
    const bad = badConfig({ PERSONAL_DATA_KEYS: `k1:${k1.slice(4)}` });
    expect(bad).toBeInstanceOf(ConfigError);
    expect(bad).toMatchObject({ variable: "PERSONAL_DATA_KEYS", problem: expect.stringContaining("32 bytes") });
    expect(bad!.message).not.toContain(k1.slice(4));
  });

  it("reads each shard's guard location; none by default", () => {
    expect(configOf({}).CAPACITY_GUARD_LOCATIONS).toEqual({});
    expect(configOf({ CAPACITY_GUARD_LOCATIONS: " DB=weur , DB_SHARD_1=enam" }).CAPACITY_GUARD_LOCATIONS).toEqual({ DB: "weur", DB_SHARD_1: "enam" });
  });

  it("sends writes beside the database when measured far, unless told always or never", () => {
    expect(configOf({}).WRITES_BESIDE_DATABASE).toBe("auto");
    for (const value of ["auto", "always", "never"]) expect(configOf({ WRITES_BESIDE_DATABASE: value }).WRITES_BESIDE_DATABASE).toBe(value);
  });

  it("reads the SMTP settings: STARTTLS by default, the port as a number", () => {
    expect(configOf({ MESSAGE_PROVIDER: "smtp", SMTP_HOST: "smtp.shop.no", MAIL_FROM: "bookings@shop.no" })).toMatchObject({
      MESSAGE_PROVIDER: "smtp",
      SMTP_HOST: "smtp.shop.no",
      SMTP_SECURITY: "starttls",
      MAIL_FROM: "bookings@shop.no",
    });
    expect(configOf({ SMTP_PORT: "465", SMTP_SECURITY: "tls" })).toMatchObject({ SMTP_PORT: 465, SMTP_SECURITY: "tls" });
  });

  it.each([
    ["WRITES_BESIDE_DATABASE", "sometimes"],
    ["RATE_LIMIT_REQUESTS", "lots"],
    ["RATE_LIMIT_REQUESTS", "0"],
    ["RATE_LIMIT_WINDOW_SECONDS", "1.5"],
    ["SMS_DAILY_CAP_PER_ACCOUNT", "-1"],
    ["MESSAGE_PROVIDER", "twilio"],
    ["SMS_PROVIDER_URL", "not a url"],
    ["EMAIL_PROVIDER_URL", "ftp://mail.example"],
    ["SMTP_HOST", "smtp.example.com\r\nRCPT TO:<x@y.z>"],
    ["RESEND_API_BASE", "not a url"],
    ["SMS_PROVIDER", "carrier-pigeon"],
    ["TWILIO_ACCOUNT_SID", "AC123"],
    ["TWILIO_FROM", "not a sender id at all"],
    ["SMTP_PORT", "99999"],
    ["SMTP_SECURITY", "ssl"],
    ["MAIL_FROM", "Bookings <bookings@shop.no>"],
    ["CAPACITY_GUARD_LOCATIONS", "DB=moon"],
    ["CAPACITY_GUARD_LOCATIONS", "SHARD_2=weur"],
    ["CAPACITY_GUARD_LOCATIONS", "somewhere"],
  ])("refuses %s=%s, naming the variable and not its value", (variable, value) => {
    const error = badConfig({ [variable]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.variable).toBe(variable);
    expect(error!.message).not.toContain(value);
    expect(() => configOf({ [variable]: value })).toThrow(ConfigError);
  });
});
