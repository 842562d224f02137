// User link input: POST /client/users with the user's attributes and the role at the top level.
import * as z from "zod";
import { optionalText, requiredText } from "../../http/fields";
import { email } from "../account/schema";

export const ROLES = ["admin", "manager", "staff"] as const;

/** Digits with the separators people type; the number is for contact, not for sending SMS. */
const PHONE = /^\+?[0-9][0-9 ()./-]{2,30}$/;

const userInput = z.object({
  name: requiredText(),
  // Stored lower-case so "Ann@X.io" and "ann@x.io" are one user.
  email: email().transform((s) => s.toLowerCase()),
  phone_number: optionalText(32).refine((s) => s == null || PHONE.test(s.trim()), "is not a valid phone number"),
});

export const createUserLinkBody = z.object({
  user: userInput,
  // The least privilege unless the caller asks for more.
  role: z.enum(ROLES).default("staff"),
});

export type CreateUserLink = z.output<typeof createUserLinkBody>;
