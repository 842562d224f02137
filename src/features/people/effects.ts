// What follows a change to a person, after it is stored: its webhook event.
import { nationalIdKeys } from "../../config";
import type { Person } from "../../db/schema";
import type { Deps } from "../../env";
import { emitEvent, performedByOf } from "../webhooks/emit";
import { toPersonJson } from "./serializer";

export async function afterPersonChange(deps: Deps, change: "created" | "modified" | "deleted", person: Person): Promise<Person> {
  const json = toPersonJson(person, deps.account.time_zone, nationalIdKeys(deps.env));
  await emitEvent(deps.env, deps.account, `person.${change}`, { kind: "person", id: person.id, json }, performedByOf(deps.surface), deps.now);
  return person;
}
