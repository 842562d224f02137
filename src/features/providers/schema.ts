// Provider input: POST /providers and the list filters of GET /providers.
import * as z from "zod";
import { idOrIds, idParam } from "../../http/fields";

const providerInput = z.object({ resource_id: idParam, service_id: idParam });
export const createProviderBody = z.object({ provider: providerInput });

export const listProvidersQuery = z.object({
  service_id: idOrIds().optional(),
  resource_id: idOrIds().optional(),
});

export type ProviderInput = z.output<typeof providerInput>;
export type ProviderFilter = z.output<typeof listProvidersQuery>;
