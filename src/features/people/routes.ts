// /people on the private API. Perishable tokens and a person's bookings are other features'
// paths: a non-numeric id here answers 404 rather than matching them.
import { Hono, type Context } from "hono";
import { nationalIdKeys } from "../../config";
import type { Person } from "../../db/schema";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { pageRequest, setPageHeaders, type PageRequest } from "../../http/pagination";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { mergeBody, mergeQuery, pageQuery, peopleQuery, personBody } from "./schema";
import { toPersonJson } from "./serializer";
import { createPerson, getPerson, listChildren, listPeople, mergePeople, setPersonActive, updatePerson } from "./service";

export const peopleRoutes = new Hono<AppEnv>();

const one = (c: Context<AppEnv>, person: Person) => c.json(wrap("person", toPersonJson(person, c.var.account.time_zone, nationalIdKeys(c.env))));

const page = (c: Context<AppEnv>, request: PageRequest, { rows, total, nextCursor }: { rows: Person[]; total: number; nextCursor?: string | null }) => {
  setPageHeaders(c, request, total, rows.length, nextCursor);
  return c.json(
    wrapList(
      "person",
      rows.map((p) => toPersonJson(p, c.var.account.time_zone, nationalIdKeys(c.env))),
    ),
  );
};

peopleRoutes.get("/", query(peopleQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page, undefined, c.req.valid("query").cursor);
  return page(c, request, await listPeople(deps(c), c.req.valid("query"), request));
});

peopleRoutes.get("/all", query(peopleQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page, undefined, c.req.valid("query").cursor);
  return page(c, request, await listPeople(deps(c), c.req.valid("query"), request, { includeInactive: true }));
});

peopleRoutes.get("/:id", params("id"), async (c) => one(c, await getPerson(deps(c), c.req.valid("param").id)));

peopleRoutes.get("/:id/children", params("id"), query(pageQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page);
  return page(c, request, await listChildren(deps(c), c.req.valid("param").id, request));
});

peopleRoutes.post("/", body(personBody, { root: "person" }), async (c) => one(c, await createPerson(deps(c), c.req.valid("json").person)));

peopleRoutes.put("/:id", params("id"), body(personBody, { root: "person" }), async (c) =>
  one(c, await updatePerson(deps(c), c.req.valid("param").id, c.req.valid("json").person)),
);

peopleRoutes.delete("/:id", params("id"), async (c) => one(c, await setPersonActive(deps(c), c.req.valid("param").id, false)));

peopleRoutes.put("/:id/undelete", params("id"), async (c) => one(c, await setPersonActive(deps(c), c.req.valid("param").id, true)));

peopleRoutes.post("/:id/merge", params("id"), query(mergeQuery), body(mergeBody, { root: "person" }), async (c) =>
  one(c, await mergePeople(deps(c), c.req.valid("param").id, c.req.valid("query").merge_person_id, c.req.valid("json").person)),
);
