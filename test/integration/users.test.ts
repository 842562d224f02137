import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";

let api: Client;
let other: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
});

const OSLO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;
let counter = 0;
const uniqueEmail = () => `user${++counter}@example.com`;

const addUser = async (client: Client, user: Record<string, unknown> = {}, role?: string) => {
  const res = await client.post("/client/users", { user: { name: "Ann", email: uniqueEmail(), ...user }, ...(role ? { role } : {}) });
  expect(res.status).toBe(200);
  return res.body.client_user_link;
};

const listIds = async (client: Client) => (await client.get("/client/users")).body.map((e: any) => e.client_user_link.id);

describe("POST /api/v1/client/users", () => {
  it("adds a user and answers the link wrapped as client_user_link", async () => {
    const res = await api.post("/client/users", {
      user: { name: "Ann Admin", email: "ann@salon.no", phone_number: "+47 912 34 567" },
      role: "admin",
    });
    expect(res.status).toBe(200);
    const link = res.body.client_user_link;
    expect(link).toEqual({
      id: expect.any(Number),
      user_id: expect.any(Number),
      role: "admin",
      created_at: expect.stringMatching(OSLO_DATETIME),
      updated_at: expect.stringMatching(OSLO_DATETIME),
      user: {
        id: link.user_id,
        name: "Ann Admin",
        email: "ann@salon.no",
        phone_number: "+47 912 34 567",
        phonenumber: "+47 912 34 567",
        created_at: link.created_at,
        updated_at: link.updated_at,
      },
    });
  });

  it("takes bracket form data with the role at the top level", async () => {
    const email = uniqueEmail();
    const res = await api.form("POST", "/client/users", `user[name]=Mia+Manager&user[email]=${email}&role=manager`);
    expect(res.status).toBe(200);
    expect(res.body.client_user_link).toMatchObject({ role: "manager", user: { name: "Mia Manager", email, phone_number: null, phonenumber: null } });
  });

  it("gives the staff role when none is sent", async () => {
    expect((await addUser(api)).role).toBe("staff");
  });

  it("stores the email in lower case", async () => {
    expect((await addUser(api, { email: "Case.Person@Example.COM" })).user.email).toBe("case.person@example.com");
  });

  it("ignores read-only attributes", async () => {
    const link = await addUser(api, { id: 999999, created_at: "2001-01-01 00:00" });
    expect(link.user.id).not.toBe(999999);
    expect(link.user.created_at.startsWith("2001")).toBe(false);
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ["name and email are missing", { user: {} }, { name: ["can't be blank"], email: ["can't be blank"] }],
    ["the name is blank", { user: { name: "  ", email: "blank@example.com" } }, { name: ["can't be blank"] }],
    ["the email is not one", { user: { name: "Ann", email: "ann-at-example" } }, { email: ["is not a valid email address"] }],
    ["the phone number has letters", { user: { name: "Ann", email: "p@example.com", phone_number: "call me" } }, { phone_number: ["is not a valid phone number"] }],
    ["the role is unknown", { user: { name: "Ann", email: "r@example.com" }, role: "owner" }, { role: ["is not included in the list (admin, manager, staff)"] }],
    ["the attributes are not wrapped in user", { name: "Ann", email: "bare@example.com" }, { user: [expect.stringContaining('{"user"')] }],
  ])("answers 400 when %s, and adds nobody", async (_case, payload, expected) => {
    const before = await listIds(api);
    const res = await api.post("/client/users", payload);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(await listIds(api)).toEqual(before);
  });

  it("answers 400 on email when a user with that email is already linked, whatever its case", async () => {
    const email = uniqueEmail();
    const first = await addUser(api, { email });
    const before = await listIds(api);
    const res = await api.post("/client/users", { user: { name: "Twin", email: email.toUpperCase() }, role: "admin" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: ["has already been taken"] });
    expect(await listIds(api)).toEqual(before);
    expect((await api.get(`/client/users/${first.id}`)).body.client_user_link).toEqual(first);
  });

  it("adds one user when two requests with the same email race, and answers the other 400", async () => {
    const email = uniqueEmail();
    const add = () => api.post("/client/users", { user: { name: "Racer", email } });
    const statuses = (await Promise.all([add(), add(), add()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    const links = (await api.get("/client/users")).body.filter((e: any) => e.client_user_link.user.email === email);
    expect(links).toHaveLength(1);
  });

  it("lets another account add a user with the same email", async () => {
    const email = uniqueEmail();
    const mine = await addUser(api, { email });
    const theirs = await addUser(other, { email });
    expect(theirs.user.id).not.toBe(mine.user.id);
  });
});

describe("GET /api/v1/client/users", () => {
  it("lists the account's user links in the order they were added, keyed client_user_link", async () => {
    const first = await addUser(api, { name: "First" });
    const second = await addUser(api, { name: "Second" }, "manager");
    const res = await api.get("/client/users");
    expect(res.status).toBe(200);
    const links = res.body.map((e: any) => e.client_user_link);
    expect(res.body.every((e: any) => Object.keys(e).join() === "client_user_link")).toBe(true);
    expect(links.filter((l: any) => [first.id, second.id].includes(l.id))).toEqual([first, second]);
    expect(links.map((l: any) => l.id)).toEqual([...links.map((l: any) => l.id)].sort((a: number, b: number) => a - b));
  });

  it("does not list another account's users", async () => {
    const theirs = await addUser(other);
    expect(await listIds(api)).not.toContain(theirs.id);
    expect(await listIds(other)).toContain(theirs.id);
  });
});

describe("GET /api/v1/client/users/{id}", () => {
  it("answers one user link", async () => {
    const link = await addUser(api, { phone_number: "12345678" }, "admin");
    const res = await api.get(`/client/users/${link.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ client_user_link: link });
  });

  it("answers 404 for an unknown id and for one that is not a number", async () => {
    for (const id of ["999999", "abc"]) {
      const res = await api.get(`/client/users/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it("answers 404 for another account's user link, which stays as it was", async () => {
    const theirs = await addUser(other);
    const res = await api.get(`/client/users/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await other.get(`/client/users/${theirs.id}`)).body).toEqual({ client_user_link: theirs });
  });
});
