// /client/users: the account's user links (list, one, add).
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { deps } from "../deps";
import { createUserLinkBody } from "./schema";
import { toUserLinkJson } from "./serializer";
import { createUserLink, getUserLink, listUserLinks } from "./service";

export const userRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;

userRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "client_user_link",
      (await listUserLinks(deps(c))).map((row) => toUserLinkJson(row, tz(c))),
    ),
  ),
);

userRoutes.get("/:id", params("id"), async (c) => c.json(wrap("client_user_link", toUserLinkJson(await getUserLink(deps(c), c.req.valid("param").id), tz(c)))));

userRoutes.post("/", body(createUserLinkBody, { root: "user" }), async (c) =>
  c.json(wrap("client_user_link", toUserLinkJson(await createUserLink(deps(c), c.req.valid("json")), tz(c)))),
);
