// Providers: which resources perform which services. Deletion is a hard delete.
import { and, asc, eq, sql } from "drizzle-orm";
import { providers, resources, services, type Provider } from "../../db/schema";
import { inIds } from "../../db/id-list";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import { found } from "../../http/serialize";
import type { ProviderFilter, ProviderInput } from "./schema";

export function listProviders({ db, account }: Deps, filter: ProviderFilter = {}): Promise<Provider[]> {
  const conditions = [eq(providers.account_id, account.id), eq(providers.active, true)];
  if (filter.service_id) conditions.push(inIds(providers.service_id, filter.service_id));
  if (filter.resource_id) conditions.push(inIds(providers.resource_id, filter.resource_id));
  return db
    .select()
    .from(providers)
    .where(and(...conditions))
    .orderBy(asc(providers.id));
}

export function getProvider({ db, account }: Deps, id: number): Promise<Provider> {
  return found(db.query.providers.findFirst({ where: and(eq(providers.id, id), eq(providers.account_id, account.id)) }), "provider");
}

/** Both ends must belong to the caller's account; another tenant's id reads as unknown. */
async function assertLinkable({ db, account }: Deps, input: ProviderInput): Promise<void> {
  const [resource, service] = await db.batch([
    db
      .select({ id: resources.id })
      .from(resources)
      .where(and(eq(resources.id, input.resource_id), eq(resources.account_id, account.id))),
    db
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.id, input.service_id), eq(services.account_id, account.id))),
  ]);
  const errors = new ErrorCollector();
  if (resource.length === 0) errors.add("resource_id", "does not exist");
  if (service.length === 0) errors.add("service_id", "does not exist");
  errors.throwIfAny();
}

/**
 * Creating a link that exists answers that link, re-activated; an already active link keeps
 * its updated_at because nothing changed. One upsert, so two concurrent creates cannot race.
 */
export async function createProvider(deps: Deps, input: ProviderInput): Promise<Provider> {
  await assertLinkable(deps, input);
  const { db, account, now } = deps;
  const [row] = await db
    .insert(providers)
    .values({ ...input, account_id: account.id, active: true, created_at: now, updated_at: now })
    .onConflictDoUpdate({
      target: [providers.service_id, providers.resource_id],
      set: { active: true, updated_at: sql`CASE WHEN ${providers.active} THEN ${providers.updated_at} ELSE ${now} END` },
      setWhere: eq(providers.account_id, account.id),
    })
    .returning();
  // Unreachable while ids are global and checked above; kept so a foreign row is never answered.
  if (!row) throw ApiError.invalid("service_id", "does not exist");
  return row;
}

export async function deleteProvider(deps: Deps, id: number): Promise<Provider> {
  await getProvider(deps, id);
  const [row] = await deps.db
    .delete(providers)
    .where(and(eq(providers.id, id), eq(providers.account_id, deps.account.id)))
    .returning();
  if (!row) throw ApiError.notFound("provider"); // removed by a concurrent delete
  // The link is gone for good; the answer says so as every other DELETE does (docs/decisions/conventions.md).
  return { ...row, active: false };
}
