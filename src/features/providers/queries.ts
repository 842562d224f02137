// The provider join other features read: which of the account's active resources perform a
// service, in provider order (the order a free one is picked in). Booking creates batch it with
// their other reads; the slot reads select the same rows with the engine's columns only.
import { and, asc, eq, type SQL, type SQLWrapper } from "drizzle-orm";
import type { QueryBuilder } from "drizzle-orm/sqlite-core";
import { providers, resources } from "../../db/schema";

/**
 * The service's active provider resources, as a query a caller can put into its own batch.
 * Built by a query builder with placeholders for the ids (bookings/references.ts renders it once
 * per isolate); each row is `row`, e.g. the resource as one JSON text (db/json-row.ts).
 */
export const providerResourcesQuery = (qb: QueryBuilder, accountId: SQLWrapper, serviceId: SQLWrapper, row: SQL.Aliased<string>) =>
  qb
    .select({ row })
    .from(providers)
    .innerJoin(resources, eq(resources.id, providers.resource_id))
    .where(
      and(
        eq(providers.account_id, accountId),
        eq(providers.service_id, serviceId),
        eq(providers.active, true),
        eq(resources.account_id, accountId),
        eq(resources.active, true),
      ),
    )
    .orderBy(asc(providers.id));
