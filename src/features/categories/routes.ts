// /categories on the private API: the category tree and the services of each category.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { deps } from "../deps";
import { toServiceJson } from "../services/serializer";
import { createCategoryBody, updateCategoryBody } from "./schema";
import { toCategoryJson } from "./serializer";
import { createCategory, deleteCategory, getCategory, listCategories, listCategoryServices, updateCategory } from "./service";

export const categoryRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;

categoryRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "category",
      (await listCategories(deps(c))).map((cat) => toCategoryJson(cat, tz(c))),
    ),
  ),
);

categoryRoutes.get("/:id", params("id"), async (c) => c.json(wrap("category", toCategoryJson(await getCategory(deps(c), c.req.valid("param").id), tz(c)))));

categoryRoutes.get("/:id/services", params("id"), async (c) =>
  c.json(
    wrapList(
      "service",
      (await listCategoryServices(deps(c), c.req.valid("param").id)).map((s) => toServiceJson(s, tz(c))),
    ),
  ),
);

categoryRoutes.post("/", body(createCategoryBody, { root: "category" }), async (c) =>
  c.json(wrap("category", toCategoryJson(await createCategory(deps(c), c.req.valid("json").category), tz(c)))),
);

categoryRoutes.put("/:id", params("id"), body(updateCategoryBody, { root: "category" }), async (c) =>
  c.json(wrap("category", toCategoryJson(await updateCategory(deps(c), c.req.valid("param").id, c.req.valid("json").category), tz(c)))),
);

categoryRoutes.delete("/:id", params("id"), async (c) => c.json(wrap("category", toCategoryJson(await deleteCategory(deps(c), c.req.valid("param").id), tz(c)))));
