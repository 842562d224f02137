// Token codes: five uniformly random digits (the same draw as booking verification codes), kept
// only as a hash salted with the account and number, so a copy of the table shows no live code.
import { sha256Hex } from "../../http/secrets";
import { newVerificationCode } from "../bookings/verification";

export const TOKEN_TTL_MS = 10 * 60 * 1000; // spec: Limits, perishable token lifetime
export const MAX_ATTEMPTS = 5;

export const newTokenCode = newVerificationCode;

export const codeHash = (accountId: number, identifier: string, code: string) => sha256Hex(`${accountId}:${identifier}:${code}`);
