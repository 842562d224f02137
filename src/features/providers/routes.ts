// /providers on the private API: links between resources and services.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { createProviderBody, listProvidersQuery } from "./schema";
import { toProviderJson } from "./serializer";
import { createProvider, deleteProvider, getProvider, listProviders } from "./service";

export const providerRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;

providerRoutes.get("/", query(listProvidersQuery), async (c) =>
  c.json(
    wrapList(
      "provider",
      (await listProviders(deps(c), c.req.valid("query"))).map((p) => toProviderJson(p, tz(c))),
    ),
  ),
);

providerRoutes.get("/:id", params("id"), async (c) => c.json(wrap("provider", toProviderJson(await getProvider(deps(c), c.req.valid("param").id), tz(c)))));

providerRoutes.post("/", body(createProviderBody, { root: "provider" }), async (c) =>
  c.json(wrap("provider", toProviderJson(await createProvider(deps(c), c.req.valid("json").provider), tz(c)))),
);

providerRoutes.delete("/:id", params("id"), async (c) => c.json(wrap("provider", toProviderJson(await deleteProvider(deps(c), c.req.valid("param").id), tz(c)))));
