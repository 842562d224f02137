// The provider join other features read: which of the account's active resources perform a
// service, in provider order (the order a free one is picked in). Booking creates batch it with
// their other reads; the slot reads select the same rows with the engine's columns only.
import { and, asc, eq } from "drizzle-orm";
import { providers, resources } from "../../db/schema";
import type { Deps } from "../../env";

/** The service's active provider resources, as a query a caller can put into its own batch. */
export const providerResourcesQuery = ({ db, account }: Deps, serviceId: number) =>
  db
    .select({ resource: resources })
    .from(providers)
    .innerJoin(resources, eq(resources.id, providers.resource_id))
    .where(and(
      eq(providers.account_id, account.id), eq(providers.service_id, serviceId), eq(providers.active, true),
      eq(resources.account_id, account.id), eq(resources.active, true),
    ))
    .orderBy(asc(providers.id));
