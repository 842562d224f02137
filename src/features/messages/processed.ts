// `message.processed`: announced once a message is settled (sent or failed), performed by the system.
import type { Account } from "../../db/schema";
import type { Env } from "../../env";
import { emitEvent } from "../webhooks/emit";
import { toMessageJson, type Message } from "./serializer";

export async function announceProcessed(env: Env, account: Account, message: Message, now: number): Promise<void> {
  const json = toMessageJson(message, account.time_zone);
  await emitEvent(env, account, "message.processed", { kind: "message", id: message.id, json }, { via: "system" }, now);
}
