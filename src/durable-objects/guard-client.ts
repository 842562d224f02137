// How writes reach the capacity guard of their scope: an interface the features take in `deps`,
// with the CapacityGuard Durable Objects (one per resource or event) as the production one.
import { guardKey, type CapacityGuard as CapacityGuardObject, type GuardedBatch, type GuardedResult } from "./capacity-guard";

export interface GuardScope {
  kind: "resource" | "event";
  id: number;
}

export interface CapacityGuard {
  /** Runs the batch with no other guarded write of the same scope in between. */
  apply(scope: GuardScope, batch: GuardedBatch): Promise<GuardedResult>;
}

/** The guards of one shard's resources and events; each writes to that shard. */
export const durableCapacityGuard = (env: { CAPACITY_GUARD: DurableObjectNamespace<CapacityGuardObject> }, shard: string): CapacityGuard => ({
  apply: async (scope, batch) => {
    const result = await env.CAPACITY_GUARD.getByName(guardKey(shard, scope)).apply({ ...batch, shard });
    if (result.failure !== undefined) throw new Error(result.failure);
    return result;
  },
});
