// Which template a message is rendered from: the service's, then the account's, then the
// built-in default in the account locale (issue 4). Subjects come from the account or the default.
import type { Account, Service } from "../../db/schema";
import { DEFAULT_TEXTS, localeOf } from "./defaults";
import type { Channel, MessageKind } from "./kinds";

type ServiceTemplate = "mail_verification" | "mail_confirmation" | "sms_verification" | "sms_confirmation" | "sms_reminder";
type AccountTemplate =
  | "sms_verification"
  | "sms_confirmation"
  | "sms_modification"
  | "sms_cancellation"
  | "sms_reminder"
  | "mail_verification"
  | "mail_confirmation"
  | "mail_modification"
  | "mail_cancellation";
type AccountSubject = "mail_verification_subject" | "mail_confirmation_subject" | "mail_modification_subject" | "mail_cancellation_subject";

const SERVICE_COLUMNS = new Set<string>(["mail_verification", "mail_confirmation", "sms_verification", "sms_confirmation", "sms_reminder"]);
const ACCOUNT_COLUMNS = new Set<string>([
  "sms_verification",
  "sms_confirmation",
  "sms_modification",
  "sms_cancellation",
  "sms_reminder",
  "mail_verification",
  "mail_confirmation",
  "mail_modification",
  "mail_cancellation",
]);

export interface TemplateChoice {
  /** Candidate bodies, best first; a template that fails to render gives way to the next. */
  bodies: string[];
  subjects: string[];
}

export function templatesFor(kind: MessageKind, channel: Channel, account: Account, service: Service | null): TemplateChoice {
  const column = `${channel === "sms" ? "sms" : "mail"}_${kind}`;
  const fallback = DEFAULT_TEXTS[localeOf(account.locale)][kind];
  const bodies: (string | null | undefined)[] = [
    SERVICE_COLUMNS.has(column) ? service?.[column as ServiceTemplate] : null,
    ACCOUNT_COLUMNS.has(column) ? account[column as AccountTemplate] : null,
    channel === "sms" ? fallback.sms : fallback.email,
  ];
  const subjects: (string | null | undefined)[] =
    channel === "email" ? [ACCOUNT_COLUMNS.has(column) ? account[`${column}_subject` as AccountSubject] : null, fallback.subject] : [];
  const present = (texts: (string | null | undefined)[]) => texts.filter((t): t is string => typeof t === "string" && t.trim() !== "");
  return { bodies: present(bodies), subjects: present(subjects) };
}
