// Services: what customers book. Deletion is soft (active=false).
import { and, asc, eq } from "drizzle-orm";
import { services, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import { found } from "../../http/serialize";
import { BOOKING_TYPE_IDS, type BookingType, type ServiceInput, type ServiceUpdate } from "./schema";

/** `booking_type` wins over the deprecated `booking_type_id` when both are sent. */
function normalise<T extends ServiceUpdate>(input: T) {
  const { booking_type_id, booking_type, ...rest } = input;
  const type: BookingType | undefined = booking_type ?? (booking_type_id ? BOOKING_TYPE_IDS[booking_type_id] : undefined);
  return { ...rest, ...(type ? { booking_type: type } : {}) };
}

export function listServices({ db, account }: Deps, filter: { bookingType?: BookingType } = {}): Promise<Service[]> {
  const conditions = [eq(services.account_id, account.id), eq(services.active, true)];
  if (filter.bookingType) conditions.push(eq(services.booking_type, filter.bookingType));
  return db.select().from(services).where(and(...conditions)).orderBy(asc(services.id));
}

export function getService({ db, account }: Deps, id: number, opts: { activeOnly?: boolean } = {}): Promise<Service> {
  const conditions = [eq(services.id, id), eq(services.account_id, account.id)];
  if (opts.activeOnly) conditions.push(eq(services.active, true));
  return found(db.query.services.findFirst({ where: and(...conditions) }), "service");
}

export async function createService({ db, account, now }: Deps, input: ServiceInput): Promise<Service> {
  const [row] = await db
    .insert(services)
    .values({ ...normalise(input), account_id: account.id, created_at: now, updated_at: now })
    .returning();
  return row;
}

export async function updateService(deps: Deps, id: number, input: ServiceUpdate): Promise<Service> {
  await getService(deps, id);
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
