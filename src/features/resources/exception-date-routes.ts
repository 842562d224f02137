// /resources/{id}/exception_dates: per-date hours, one date at a time or several in one request.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { pageRequest, setPageHeaders } from "../../http/pagination";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { exceptionDateBody, exceptionDatesBody, exceptionDatesQuery, liftSdkExceptionDate } from "./exception-date-schema";
import { deleteExceptionDate, getExceptionDate, listExceptionDates, saveExceptionDate, saveExceptionDates } from "./exception-dates";
import { toExceptionDateJson } from "./serializer";
import { exceptionDateParam, indexedBody } from "./validate";

export const exceptionDateRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;
const KIND = "resource_exception_date";

exceptionDateRoutes.get("/:id/exception_dates", params("id"), query(exceptionDatesQuery), async (c) => {
  const { page, ...filter } = c.req.valid("query");
  const request = pageRequest(page);
  const { rows, total } = await listExceptionDates(deps(c), c.req.valid("param").id, filter, request);
  setPageHeaders(c, request, total, rows.length);
  return c.json(
    wrapList(
      KIND,
      rows.map((row) => toExceptionDateJson(row, tz(c))),
    ),
  );
});

exceptionDateRoutes.on(["POST", "PUT"], "/:id/exception_dates", params("id"), indexedBody(exceptionDatesBody, "resource_exception_dates"), async (c) => {
  const rows = await saveExceptionDates(deps(c), c.req.valid("param").id, c.req.valid("json").resource_exception_dates);
  return c.json(
    wrapList(
      KIND,
      rows.map((row) => toExceptionDateJson(row, tz(c))),
    ),
  );
});

exceptionDateRoutes.get("/:id/exception_dates/:date", exceptionDateParam("not_found"), async (c) => {
  const { id, date } = c.req.valid("param");
  return c.json(wrap(KIND, toExceptionDateJson(await getExceptionDate(deps(c), id, date), tz(c))));
});

exceptionDateRoutes.on(
  ["POST", "PUT"],
  "/:id/exception_dates/:date",
  exceptionDateParam("invalid"),
  body(exceptionDateBody, { root: "resource_exception_date", lift: liftSdkExceptionDate }),
  async (c) => {
    const { id, date } = c.req.valid("param");
    const hours = c.req.valid("json").resource_exception_date.opening_hours ?? null;
    return c.json(wrap(KIND, toExceptionDateJson(await saveExceptionDate(deps(c), id, date, hours), tz(c))));
  },
);

exceptionDateRoutes.delete("/:id/exception_dates/:date", exceptionDateParam("not_found"), async (c) => {
  const { id, date } = c.req.valid("param");
  return c.json(wrap(KIND, toExceptionDateJson(await deleteExceptionDate(deps(c), id, date), tz(c))));
});
