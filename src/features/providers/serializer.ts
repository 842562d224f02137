// Provider output: the link's ids, its flag and timestamps in the account zone.
import type { Provider } from "../../db/schema";
import { timestampsOut } from "../../http/serialize";

export function toProviderJson(provider: Provider, timeZone: string) {
  const { id, resource_id, service_id, active } = provider;
  return { id, resource_id, service_id, active, ...timestampsOut(provider, timeZone) };
}
