// Users of the account and their role links. Users belong to one account (users.account_id).
import { and, asc, eq, type SQL } from "drizzle-orm";
import { userLinks, users } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { found } from "../../http/serialize";
import type { CreateUserLink } from "./schema";
import type { UserLinkRow } from "./serializer";

const emailTaken = () => ApiError.invalid("email", "has already been taken");

function selectLinks({ db, account }: Deps, condition?: SQL) {
  return db
    .select({ link: userLinks, user: users })
    .from(userLinks)
    .innerJoin(users, and(eq(users.id, userLinks.user_id), eq(users.account_id, userLinks.account_id)))
    .where(and(eq(userLinks.account_id, account.id), condition))
    .orderBy(asc(userLinks.id));
}

export const listUserLinks = (deps: Deps): Promise<UserLinkRow[]> => selectLinks(deps);

export async function getUserLink(deps: Deps, id: number): Promise<UserLinkRow> {
  const [row] = await selectLinks(deps, eq(userLinks.id, id)).limit(1);
  return found(row, "user link");
}

/**
 * Adds a user to the account. A user row without a link (left by a request that failed
 * between its two inserts) is linked rather than duplicated; its stored name is kept.
 */
export async function createUserLink(deps: Deps, input: CreateUserLink): Promise<UserLinkRow> {
  const { db, account, now } = deps;
  try {
    let user = await db.query.users.findFirst({ where: and(eq(users.account_id, account.id), eq(users.email, input.user.email)) });
    if (user) {
      const linked = await db.query.userLinks.findFirst({
        where: and(eq(userLinks.account_id, account.id), eq(userLinks.user_id, user.id)),
        columns: { id: true },
      });
      if (linked) throw emailTaken();
    } else {
      [user] = await db
        .insert(users)
        .values({ ...input.user, phone_number: input.user.phone_number ?? null, account_id: account.id, created_at: now, updated_at: now })
        .returning();
    }
    const [link] = await db.insert(userLinks).values({ account_id: account.id, user_id: user.id, role: input.role, created_at: now, updated_at: now }).returning();
    return { link, user };
  } catch (error) {
    // Two requests adding the same email at once: the unique index decides, the loser gets a 400.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return text.includes("UNIQUE constraint failed");
}
