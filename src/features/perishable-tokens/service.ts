// Perishable tokens: send a five-digit code by SMS to a phone number, and verify it at most five
// times within ten minutes; success answers the account's person with that number, if any.
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { people, perishableTokens, type Person } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { secretsEqual } from "../../http/secrets";
import { CAP_MESSAGES, CAP_RETRY_AFTER_SECONDS } from "../messages/caps";
import { enqueueMessage } from "../messages/enqueue";
import { renderMessage } from "../messages/render";
import { templatesFor } from "../messages/templates";
import { phoneE164 } from "../people/identity";
import { codeHash, MAX_ATTEMPTS, newTokenCode, TOKEN_TTL_MS } from "./code";
import type { TokenPerson } from "./schema";

const EMAIL_REFUSED = "sending email is not supported; use phone_number";
const MASKED_CODE = "•••••";

/**
 * The E.164 number a token is for. The number must be valid, not only possible, as for SMS
 * verification of bookings: a code sent to a number that cannot exist is an SMS wasted.
 */
function identifierOf(deps: Deps, person: TokenPerson | undefined): string {
  const phone = person?.phone_number ?? person?.phonenumber;
  if (!phone) {
    if (person?.email) throw ApiError.invalid("email", EMAIL_REFUSED);
    throw ApiError.invalid("phone_number", "can't be blank");
  }
  const e164 = phoneE164(phone, deps.account.country_code);
  if (!e164 || !parsePhoneNumberFromString(e164, deps.account.country_code as CountryCode)?.isValid()) {
    throw ApiError.invalid("phone_number", "is not a valid phone number");
  }
  return e164;
}

export async function sendToken(deps: Deps, person: TokenPerson | undefined) {
  const identifier = identifierOf(deps, person);
  const code = newTokenCode();
  const ctx = { account: deps.account, code };
  const choice = templatesFor("token", "sms", deps.account, null);
  const [delivered, stored] = await Promise.all([renderMessage(choice, ctx), renderMessage(choice, { ...ctx, code: MASKED_CODE })]);
  const sent = await enqueueMessage(
    deps,
    {
      kind: "token",
      channel: "sms",
      recipient: identifier,
      subject: null,
      body: stored.body,
      secretBody: delivered.body,
    },
    "refuse",
  );
  if (sent.refused) {
    throw new ApiError(429, { error: CAP_MESSAGES[sent.refused] }, { "Retry-After": String(CAP_RETRY_AFTER_SECONDS[sent.refused]) });
  }
  const expiresAt = deps.now + TOKEN_TTL_MS;
  // Only the newest code of a number is good: sending again replaces the earlier one.
  await deps.db.batch([
    deps.db.delete(perishableTokens).where(and(eq(perishableTokens.account_id, deps.account.id), eq(perishableTokens.identifier, identifier))),
    deps.db.insert(perishableTokens).values({
      account_id: deps.account.id,
      identifier,
      code_hash: await codeHash(deps.account.id, identifier, code),
      attempts: 0,
      expires_at: expiresAt,
      created_at: deps.now,
    }),
  ]);
  return { identifier, expires_at: expiresAt };
}

export async function verifyToken(deps: Deps, person: TokenPerson | undefined, code: string | undefined): Promise<Person | null> {
  const identifier = identifierOf(deps, person);
  if (!code) throw ApiError.invalid("perishable_token", "can't be blank");
  const { db, account, now } = deps;
  const mine = and(eq(perishableTokens.account_id, account.id), eq(perishableTokens.identifier, identifier));
  const token = await db.query.perishableTokens.findFirst({ where: mine, orderBy: [desc(perishableTokens.id)] });
  if (!token) throw ApiError.invalid("perishable_token", "is invalid");
  if (token.expires_at <= now) throw ApiError.invalid("perishable_token", "has expired: send a new one");
  // The attempt is counted in SQL before the comparison, so parallel guesses cannot exceed the limit.
  const [counted] = await db
    .update(perishableTokens)
    .set({ attempts: sql`${perishableTokens.attempts} + 1` })
    .where(and(eq(perishableTokens.id, token.id), lt(perishableTokens.attempts, MAX_ATTEMPTS), gt(perishableTokens.expires_at, now)))
    .returning({ id: perishableTokens.id });
  if (!counted) throw ApiError.invalid("perishable_token", "has been tried too many times: send a new one");
  if (!(await secretsEqual(await codeHash(account.id, identifier, code.trim()), token.code_hash))) {
    throw ApiError.invalid("perishable_token", "is invalid");
  }
  // Consumed on success; of two racing correct answers only the one that deletes it wins.
  const [consumed] = await db.delete(perishableTokens).where(eq(perishableTokens.id, token.id)).returning({ id: perishableTokens.id });
  if (!consumed) throw ApiError.invalid("perishable_token", "is invalid");
  return (await db.query.people.findFirst({ where: and(eq(people.account_id, account.id), eq(people.phone_e164, identifier)) })) ?? null;
}
