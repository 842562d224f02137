// Page arithmetic and the RFC 8288 `Link` plus metadata headers of the spec's Limits section.
import type { Context } from "hono";

export const PAGE_SIZE = 50;
export const BOOKINGS_PAGE_SIZE = 750; // spec: Limits

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export function pageRequest(page: number | undefined, perPage = PAGE_SIZE): PageRequest {
  const current = page ?? 1;
  return { page: current, perPage, limit: perPage, offset: (current - 1) * perPage };
}

export function setPageHeaders(c: Context, request: PageRequest, total: number, pageItems: number): void {
  const totalPages = Math.max(1, Math.ceil(total / request.perPage));
  const link = (page: number, rel: string) => {
    const url = new URL(c.req.url);
    url.searchParams.set("page", String(page));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, "first")];
  if (request.page > 1) links.push(link(Math.min(request.page - 1, totalPages), "prev"));
  if (request.page < totalPages) links.push(link(request.page + 1, "next"));
  links.push(link(totalPages, "last"));
  c.header("Link", links.join(", "));
  c.header("Current-Page", String(request.page));
  c.header("Page-Items", String(pageItems));
  c.header("Total-Count", String(total));
  c.header("Total-Pages", String(totalPages));
}
