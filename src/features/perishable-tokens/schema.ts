// Perishable token input: `person[phone_number]` (email is refused, docs/decisions/messages.md) and, to verify,
// the `perishable_token` code.
import * as z from "zod";
import { text } from "../../http/fields";

const person = z.object({ phone_number: text(64).optional(), phonenumber: text(64).optional(), email: text().optional() });

export const sendTokenBody = z.object({ person });
export const verifyTokenBody = z.object({ person, perishable_token: text(20).optional() });

export type TokenPerson = z.output<typeof person>;
