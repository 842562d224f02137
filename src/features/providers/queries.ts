// The provider join other features read: which of the account's active resources perform a
// service. One definition for booking (picking a free resource) and slots (their resources).
import { and, asc, eq } from "drizzle-orm";
import { providers, resources, type Resource } from "../../db/schema";
import { inIds } from "../../db/id-list";
import type { Deps } from "../../env";

/** The service's active provider resources in provider order: the order a free one is picked in. */
export function providerResources({ db, account }: Deps, serviceId: number, selected?: number[]): Promise<Resource[]> {
  const conditions = [
    eq(providers.account_id, account.id),
    eq(providers.service_id, serviceId),
    eq(providers.active, true),
    eq(resources.account_id, account.id),
    eq(resources.active, true),
  ];
  if (selected) conditions.push(inIds(resources.id, selected));
  return db
    .select({ resource: resources })
    .from(providers)
    .innerJoin(resources, eq(resources.id, providers.resource_id))
    .where(and(...conditions))
    .orderBy(asc(providers.id))
    .then((rows) => rows.map((r) => r.resource));
}
