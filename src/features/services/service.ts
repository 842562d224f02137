// Services: what customers book. Deletion is soft (active=false).
import { and, asc, eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { fixedStatement, readJsonRows } from "../../db/fixed-statement";
import { everyColumn, jsonRow } from "../../db/json-row";
import { accountD1 } from "../../db/shards";
import { services, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { found } from "../../http/serialize";
import { BOOKING_TYPE_IDS, type BookingType, type ServiceInput, type ServiceUpdate } from "./schema";

/** `booking_type` wins over the deprecated `booking_type_id` when both are sent. */
function normalise<T extends ServiceUpdate>(input: T) {
  const { booking_type_id, booking_type, ...rest } = input;
  const type: BookingType | undefined = booking_type ?? (booking_type_id ? BOOKING_TYPE_IDS[booking_type_id] : undefined);
  return { ...rest, ...(type ? { booking_type: type } : {}) };
}

// The booking site's first read for each visitor: rendered once, one JSON text per row.
const serviceRow = jsonRow(services, everyColumn(services));
const activeServices = (byType: boolean) =>
  fixedStatement<"account" | "type">(() =>
    new QueryBuilder()
      .select({ row: serviceRow.field })
      .from(services)
      .where(and(eq(services.account_id, sql.placeholder("account")), eq(services.active, true), byType ? eq(services.booking_type, sql.placeholder("type")) : undefined))
      .orderBy(asc(services.id)),
  );
const everyActiveService = activeServices(false);
const activeServicesOfType = activeServices(true);

export function listServices({ env, account }: Deps, filter: { bookingType?: BookingType } = {}): Promise<Service[]> {
  const statement = filter.bookingType ? activeServicesOfType : everyActiveService;
  return readJsonRows(accountD1({ env, account }), statement, serviceRow, { account: account.id, type: filter.bookingType ?? null });
}

export function getService({ db, account }: Deps, id: number, opts: { activeOnly?: boolean } = {}): Promise<Service> {
  const conditions = [eq(services.id, id), eq(services.account_id, account.id)];
  if (opts.activeOnly) conditions.push(eq(services.active, true));
  return found(db.query.services.findFirst({ where: and(...conditions) }), "service");
}

/** A service that asks for payment must say how much: its price (full) or its deposit. */
function checkPayment(service: Pick<Service, "payment" | "price" | "deposit">): void {
  if (service.payment === "full" && !service.price) throw ApiError.invalid("price", "can't be blank when payment is full");
  if (service.payment === "deposit" && !service.deposit) throw ApiError.invalid("deposit", "can't be blank when payment is deposit");
}

export async function createService({ db, account, now }: Deps, input: ServiceInput): Promise<Service> {
  checkPayment({ payment: input.payment ?? "none", price: input.price ?? null, deposit: input.deposit ?? null });
  const [row] = await db
    .insert(services)
    .values({ ...normalise(input), account_id: account.id, created_at: now, updated_at: now })
    .returning();
  return row;
}

export async function updateService(deps: Deps, id: number, input: ServiceUpdate): Promise<Service> {
  const current = await getService(deps, id);
  checkPayment({ ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) });
  const [row] = await deps.db
    .update(services)
    .set({ ...normalise(input), updated_at: deps.now })
    .where(and(eq(services.id, id), eq(services.account_id, deps.account.id)))
    .returning();
  return row;
}

export async function deleteService(deps: Deps, id: number): Promise<Service> {
  await getService(deps, id);
  const [row] = await deps.db
    .update(services)
    .set({ active: false, updated_at: deps.now })
    .where(and(eq(services.id, id), eq(services.account_id, deps.account.id)))
    .returning();
  return row;
}
