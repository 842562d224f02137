// Page arithmetic and the RFC 8288 `Link` plus metadata headers of the spec's Limits section.
import type { Context } from "hono";
import type { PageRequest } from "../db/page";
import type { SyncCursor } from "../db/sync-order";

export type { PageRequest } from "../db/page";

const PAGE_SIZE = 50;
export const BOOKINGS_PAGE_SIZE = 750; // spec: Limits

export function pageRequest(page: number | undefined, perPage = PAGE_SIZE, cursor?: SyncCursor): PageRequest {
  const current = page ?? 1;
  return { page: current, perPage, limit: perPage, offset: cursor ? 0 : (current - 1) * perPage, cursor };
}

/**
 * `nextCursor` is given by sync listings (db/sync-order.ts): `undefined` for other lists, `null`
 * when a sync listing has nothing after this page. Their next link then carries the cursor, and
 * exists as long as rows follow, even when changes made the listing longer than Total-Pages said.
 */
export function setPageHeaders(c: Context, request: PageRequest, total: number, pageItems: number, nextCursor?: string | null): void {
  const totalPages = Math.max(1, Math.ceil(total / request.perPage));
  const link = (page: number, rel: string, cursor?: string) => {
    const url = new URL(c.req.url);
    url.searchParams.set("page", String(page));
    if (cursor) url.searchParams.set("cursor", cursor);
    else url.searchParams.delete("cursor");
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (request.page > 1) links.push(link(Math.min(request.page - 1, totalPages), "prev"));
  if (nextCursor === undefined ? request.page < totalPages : nextCursor !== null) {
    links.push(link(request.page + 1, "next", nextCursor ?? undefined));
  }
  links.push(link(totalPages, "last"));
  c.header("Link", links.join(", "));
  c.header("Current-Page", String(request.page));
  c.header("Page-Items", String(pageItems));
  c.header("Total-Count", String(total));
  c.header("Total-Pages", String(totalPages));
}
