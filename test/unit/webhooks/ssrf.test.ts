import { describe, expect, it } from "vitest";
import { targetUrlProblem } from "../../../src/features/webhooks/ssrf";

const production = { production: true, rootDomain: "bookings.example" };
const development = { production: false, rootDomain: "localhost" };

const IP = "must name a host, not an IP address";
const LOCAL = "must not point at a private, loopback or link-local address";
const SELF = "must not point at this service";

describe("targetUrlProblem in production", () => {
  it.each([
    ["https://hooks.example.com/in?secret=s3", null],
    ["https://user:pass@hooks.example.com:8443/in", null],
    ["https://HOOKS.Example.COM./in", null],
    ["http://hooks.example.com/in", "must be an https URL"],
    ["ftp://hooks.example.com/in", "must be an http or https URL"],
    ["file:///etc/passwd", "must be an http or https URL"],
    ["hooks.example.com/in", "is not a valid URL"],
    ["https://127.0.0.1/", IP],
    ["https://10.0.0.8/", IP],
    ["https://172.16.5.4/", IP],
    ["https://192.168.1.1/", IP],
    ["https://169.254.169.254/latest/meta-data", IP],
    ["https://100.64.0.1/", IP],
    ["https://8.8.8.8/", IP],
    ["https://2130706433/", IP],
    ["https://0x7f.0.0.1/", IP],
    ["https://0x7f000001/", IP],
    ["https://017700000001/", IP],
    ["https://127.1/", IP],
    ["https://127.0.0.1./", IP],
    ["https://[::1]/", IP],
    ["https://[fe80::1]/", IP],
    ["https://[fd00::1]/", IP],
    ["https://[::ffff:127.0.0.1]/", IP],
    ["https://[::ffff:7f00:1]/", IP],
    ["https://[0:0:0:0:0:ffff:a00:1]/", IP],
    ["https://localhost/", "must be a public host name"],
    ["https://intranet/", "must be a public host name"],
    ["https://api.localhost/", LOCAL],
    ["https://LOCALHOST./", "must be a public host name"],
    ["https://printer.local/", LOCAL],
    ["https://db.internal/", LOCAL],
    ["https://nas.home.arpa/", LOCAL],
    ["https://1.0.0.127.in-addr.arpa/", LOCAL],
    ["https://bookings.example/", SELF],
    ["https://demo.bookings.example/api/v1/bookings", SELF],
    ["https://notbookings.example/", null],
  ])("%s → %s", (url, problem) => expect(targetUrlProblem(url, production)).toBe(problem));
});

describe("targetUrlProblem in development", () => {
  it.each([
    ["http://127.0.0.1:9000/hook", null],
    ["http://localhost:3000/hook", null],
    ["https://hooks.example.com/", null],
    ["ftp://localhost/", "must be an http or https URL"],
    ["not a url", "is not a valid URL"],
  ])("%s → %s", (url, problem) => expect(targetUrlProblem(url, development)).toBe(problem));
});
