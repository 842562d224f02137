// User link output (`client_user_link`) with its user; `phonenumber` is the deprecated alias.
import type { User, UserLink } from "../../db/schema";
import { timestampsOut } from "../../http/serialize";

export interface UserLinkRow {
  link: UserLink;
  user: User;
}

export function toUserLinkJson({ link, user }: UserLinkRow, timeZone: string) {
  return {
    id: link.id,
    user_id: link.user_id,
    role: link.role,
    ...timestampsOut(link, timeZone),
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      phone_number: user.phone_number,
      phonenumber: user.phone_number,
      ...timestampsOut(user, timeZone),
    },
  };
}
