// Built-in message texts per account locale, used when neither the service nor the account has
// its own template. They are Liquid like the others, so every text goes through one renderer.
import type { Locale } from "../../domain/slot-format";
import type { MessageKind } from "./kinds";

interface DefaultText {
  sms: string;
  subject: string;
  email: string;
}

const SIGN = "\n\n{{ account.name }}";
// The visitor's booking page, only when the change came with the visitor's token (docs/decisions/booking-site.md).
const LINK_SMS = "{% if booking.url %} {{ booking.url }}{% endif %}";
const LINK_EMAIL = "{% if booking.url %}\n\n{{ booking.url }}{% endif %}";
// The booking's calendar file (docs/decisions/calendar-feeds.md): a signed link, made for templates that name it.
const CAL = { en: "Add it to your calendar", sv: "Lägg till i din kalender", nb: "Legg den til i kalenderen din" };
const calEmail = (words: string) => `{% if booking.calendar_url %}\n\n${words}: {{ booking.calendar_url }}{% endif %}`;
const CAL_SMS = "{% if booking.calendar_url %} {{ booking.calendar_url }}{% endif %}";
const what = {
  en: "{{ service.title }} with {{ resource.title }}",
  sv: "{{ service.title }} hos {{ resource.title }}",
  nb: "{{ service.title }} hos {{ resource.title }}",
};

const en: Record<MessageKind, DefaultText> = {
  verification: {
    sms: `Your code is {{ code }}. Enter it to confirm your booking of ${what.en}: {{ booking.starts }}.${LINK_SMS}`,
    subject: "Verify your booking at {{ account.name }}",
    email: `Hello {{ person.name }},\n\nyour code is {{ code }}. Enter it to confirm your booking of ${what.en}: {{ booking.starts }}.${LINK_EMAIL}${SIGN}`,
  },
  confirmation: {
    sms: `Your booking of ${what.en} is confirmed: {{ booking.starts }}. {{ account.name }}${LINK_SMS}`,
    subject: "Your booking at {{ account.name }} is confirmed",
    email: `Hello {{ person.name }},\n\nyour booking of ${what.en} is confirmed: {{ booking.starts }}.${LINK_EMAIL}${calEmail(CAL.en)}${SIGN}`,
  },
  modification: {
    sms: `Your booking of ${what.en} has changed: {{ booking.starts }}. {{ account.name }}`,
    subject: "Your booking at {{ account.name }} has changed",
    email: `Hello {{ person.name }},\n\nyour booking of ${what.en} has changed. It is now: {{ booking.starts }}.${SIGN}`,
  },
  cancellation: {
    sms: `Your booking of ${what.en} on {{ booking.starts }} is cancelled. {{ account.name }}`,
    subject: "Your booking at {{ account.name }} is cancelled",
    email: `Hello {{ person.name }},\n\nyour booking of ${what.en} on {{ booking.starts }} is cancelled.${SIGN}`,
  },
  decline: {
    sms: `Sorry, your booking request for ${what.en} on {{ booking.starts }} was declined. {{ account.name }}`,
    subject: "Your booking request at {{ account.name }}",
    email: `Hello {{ person.name }},\n\nsorry, your booking request for ${what.en} on {{ booking.starts }} was declined.${SIGN}`,
  },
  reminder: {
    sms: `Reminder: ${what.en}, {{ booking.starts }}. {{ account.name }}${CAL_SMS}`,
    subject: "Reminder of your booking at {{ account.name }}",
    email: `Hello {{ person.name }},\n\na reminder of your booking of ${what.en}: {{ booking.starts }}.${SIGN}`,
  },
  notification: {
    sms: `New booking: ${what.en}, {{ booking.starts }}, {{ person.name }} ({{ booking.state }}).`,
    subject: "New booking: {{ service.title }}, {{ booking.starts }}",
    email: `New booking of ${what.en}: {{ booking.starts }}.\nCustomer: {{ person.name }} {{ person.phone_number }} {{ person.email }}\nState: {{ booking.state }}\nBooking id: {{ booking.id }}`,
  },
  offer: {
    sms: "A seat is free for you: {{ service.title }}, {{ offer.starts }}. It is held for you until {{ offer.expires }}. Accept: {{ offer.url }}",
    subject: "A seat is free for you at {{ account.name }}",
    email: `Hello {{ person.name }},\n\na seat you waited for is free: {{ service.title }}, {{ offer.starts }}. It is held for you until {{ offer.expires }}.\n\nAccept it (or let it go) here: {{ offer.url }}${SIGN}`,
  },
  payment_reminder: {
    sms: `Your booking of ${what.en} on {{ booking.starts }} is held until {{ payment.held_until }} and is not paid yet. Pay here: {{ payment.url }}`,
    subject: "Complete your payment to {{ account.name }}",
    email: `Hello {{ person.name }},\n\nyour booking of ${what.en} on {{ booking.starts }} is held for you until {{ payment.held_until }}, but it is not paid yet ({{ payment.amount }} {{ payment.currency }}).\n\nComplete your payment here: {{ payment.url }}${SIGN}`,
  },
  refund: {
    sms: `{{ payment.refunded }} {{ payment.currency }} for your booking of ${what.en} on {{ booking.starts }} is refunded. {{ account.name }}`,
    subject: "Your payment to {{ account.name }} is refunded",
    email: `Hello {{ person.name }},\n\n{{ payment.refunded }} {{ payment.currency }} of your payment for ${what.en} on {{ booking.starts }} is refunded{% if payment.reason %}: {{ payment.reason }}{% endif %}. It reaches your card or account within a few days.${SIGN}`,
  },
  token: {
    sms: "Your code is {{ code }}. It is valid for 10 minutes. {{ account.name }}",
    subject: "Your code",
    email: "Your code is {{ code }}. It is valid for 10 minutes.",
  },
};

const sv: Record<MessageKind, DefaultText> = {
  verification: {
    sms: `Din kod är {{ code }}. Ange den för att bekräfta din bokning av ${what.sv}: {{ booking.starts }}.${LINK_SMS}`,
    subject: "Verifiera din bokning hos {{ account.name }}",
    email: `Hej {{ person.name }},\n\ndin kod är {{ code }}. Ange den för att bekräfta din bokning av ${what.sv}: {{ booking.starts }}.${LINK_EMAIL}${SIGN}`,
  },
  confirmation: {
    sms: `Din bokning av ${what.sv} är bekräftad: {{ booking.starts }}. {{ account.name }}${LINK_SMS}`,
    subject: "Din bokning hos {{ account.name }} är bekräftad",
    email: `Hej {{ person.name }},\n\ndin bokning av ${what.sv} är bekräftad: {{ booking.starts }}.${LINK_EMAIL}${calEmail(CAL.sv)}${SIGN}`,
  },
  modification: {
    sms: `Din bokning av ${what.sv} har ändrats: {{ booking.starts }}. {{ account.name }}`,
    subject: "Din bokning hos {{ account.name }} har ändrats",
    email: `Hej {{ person.name }},\n\ndin bokning av ${what.sv} har ändrats. Den gäller nu: {{ booking.starts }}.${SIGN}`,
  },
  cancellation: {
    sms: `Din bokning av ${what.sv} {{ booking.starts }} är avbokad. {{ account.name }}`,
    subject: "Din bokning hos {{ account.name }} är avbokad",
    email: `Hej {{ person.name }},\n\ndin bokning av ${what.sv} {{ booking.starts }} är avbokad.${SIGN}`,
  },
  decline: {
    sms: `Tyvärr kunde din bokningsförfrågan för ${what.sv} {{ booking.starts }} inte godkännas. {{ account.name }}`,
    subject: "Din bokningsförfrågan hos {{ account.name }}",
    email: `Hej {{ person.name }},\n\ntyvärr kunde din bokningsförfrågan för ${what.sv} {{ booking.starts }} inte godkännas.${SIGN}`,
  },
  reminder: {
    sms: `Påminnelse: ${what.sv}, {{ booking.starts }}. {{ account.name }}${CAL_SMS}`,
    subject: "Påminnelse om din bokning hos {{ account.name }}",
    email: `Hej {{ person.name }},\n\nen påminnelse om din bokning av ${what.sv}: {{ booking.starts }}.${SIGN}`,
  },
  notification: {
    sms: `Ny bokning: ${what.sv}, {{ booking.starts }}, {{ person.name }} ({{ booking.state }}).`,
    subject: "Ny bokning: {{ service.title }}, {{ booking.starts }}",
    email: `Ny bokning av ${what.sv}: {{ booking.starts }}.\nKund: {{ person.name }} {{ person.phone_number }} {{ person.email }}\nStatus: {{ booking.state }}\nBokningsnummer: {{ booking.id }}`,
  },
  offer: {
    sms: "En plats är ledig för dig: {{ service.title }}, {{ offer.starts }}. Den hålls för dig till {{ offer.expires }}. Acceptera: {{ offer.url }}",
    subject: "En plats är ledig för dig hos {{ account.name }}",
    email: `Hej {{ person.name }},\n\nen plats du väntade på är ledig: {{ service.title }}, {{ offer.starts }}. Den hålls för dig till {{ offer.expires }}.\n\nAcceptera den (eller avstå) här: {{ offer.url }}${SIGN}`,
  },
  payment_reminder: {
    sms: `Din bokning av ${what.sv} {{ booking.starts }} hålls till {{ payment.held_until }} och är inte betald än. Betala här: {{ payment.url }}`,
    subject: "Slutför din betalning till {{ account.name }}",
    email: `Hej {{ person.name }},\n\ndin bokning av ${what.sv} {{ booking.starts }} hålls för dig till {{ payment.held_until }}, men den är inte betald än ({{ payment.amount }} {{ payment.currency }}).\n\nSlutför betalningen här: {{ payment.url }}${SIGN}`,
  },
  refund: {
    sms: `{{ payment.refunded }} {{ payment.currency }} för din bokning av ${what.sv} {{ booking.starts }} är återbetalt. {{ account.name }}`,
    subject: "Din betalning till {{ account.name }} är återbetald",
    email: `Hej {{ person.name }},\n\n{{ payment.refunded }} {{ payment.currency }} av din betalning för ${what.sv} {{ booking.starts }} är återbetalt{% if payment.reason %}: {{ payment.reason }}{% endif %}. Pengarna når ditt kort eller konto inom några dagar.${SIGN}`,
  },
  token: {
    sms: "Din kod är {{ code }}. Den gäller i 10 minuter. {{ account.name }}",
    subject: "Din kod",
    email: "Din kod är {{ code }}. Den gäller i 10 minuter.",
  },
};

const nb: Record<MessageKind, DefaultText> = {
  verification: {
    sms: `Koden din er {{ code }}. Skriv den inn for å bekrefte bestillingen av ${what.nb}: {{ booking.starts }}.${LINK_SMS}`,
    subject: "Bekreft bestillingen din hos {{ account.name }}",
    email: `Hei {{ person.name }},\n\nkoden din er {{ code }}. Skriv den inn for å bekrefte bestillingen av ${what.nb}: {{ booking.starts }}.${LINK_EMAIL}${SIGN}`,
  },
  confirmation: {
    sms: `Bestillingen din av ${what.nb} er bekreftet: {{ booking.starts }}. {{ account.name }}${LINK_SMS}`,
    subject: "Bestillingen din hos {{ account.name }} er bekreftet",
    email: `Hei {{ person.name }},\n\nbestillingen din av ${what.nb} er bekreftet: {{ booking.starts }}.${LINK_EMAIL}${calEmail(CAL.nb)}${SIGN}`,
  },
  modification: {
    sms: `Bestillingen din av ${what.nb} er endret: {{ booking.starts }}. {{ account.name }}`,
    subject: "Bestillingen din hos {{ account.name }} er endret",
    email: `Hei {{ person.name }},\n\nbestillingen din av ${what.nb} er endret. Den gjelder nå: {{ booking.starts }}.${SIGN}`,
  },
  cancellation: {
    sms: `Bestillingen din av ${what.nb} {{ booking.starts }} er avbestilt. {{ account.name }}`,
    subject: "Bestillingen din hos {{ account.name }} er avbestilt",
    email: `Hei {{ person.name }},\n\nbestillingen din av ${what.nb} {{ booking.starts }} er avbestilt.${SIGN}`,
  },
  decline: {
    sms: `Beklager, forespørselen din om ${what.nb} {{ booking.starts }} ble avslått. {{ account.name }}`,
    subject: "Forespørselen din hos {{ account.name }}",
    email: `Hei {{ person.name }},\n\nbeklager, forespørselen din om ${what.nb} {{ booking.starts }} ble avslått.${SIGN}`,
  },
  reminder: {
    sms: `Påminnelse: ${what.nb}, {{ booking.starts }}. {{ account.name }}${CAL_SMS}`,
    subject: "Påminnelse om bestillingen din hos {{ account.name }}",
    email: `Hei {{ person.name }},\n\nen påminnelse om bestillingen din av ${what.nb}: {{ booking.starts }}.${SIGN}`,
  },
  notification: {
    sms: `Ny bestilling: ${what.nb}, {{ booking.starts }}, {{ person.name }} ({{ booking.state }}).`,
    subject: "Ny bestilling: {{ service.title }}, {{ booking.starts }}",
    email: `Ny bestilling av ${what.nb}: {{ booking.starts }}.\nKunde: {{ person.name }} {{ person.phone_number }} {{ person.email }}\nStatus: {{ booking.state }}\nBestillingsnummer: {{ booking.id }}`,
  },
  offer: {
    sms: "En plass er ledig for deg: {{ service.title }}, {{ offer.starts }}. Den holdes for deg til {{ offer.expires }}. Godta: {{ offer.url }}",
    subject: "En plass er ledig for deg hos {{ account.name }}",
    email: `Hei {{ person.name }},\n\nen plass du ventet på er ledig: {{ service.title }}, {{ offer.starts }}. Den holdes for deg til {{ offer.expires }}.\n\nGodta den (eller gi den fra deg) her: {{ offer.url }}${SIGN}`,
  },
  payment_reminder: {
    sms: `Bestillingen din av ${what.nb} {{ booking.starts }} holdes til {{ payment.held_until }} og er ikke betalt ennå. Betal her: {{ payment.url }}`,
    subject: "Fullfør betalingen til {{ account.name }}",
    email: `Hei {{ person.name }},\n\nbestillingen din av ${what.nb} {{ booking.starts }} holdes for deg til {{ payment.held_until }}, men den er ikke betalt ennå ({{ payment.amount }} {{ payment.currency }}).\n\nFullfør betalingen her: {{ payment.url }}${SIGN}`,
  },
  refund: {
    sms: `{{ payment.refunded }} {{ payment.currency }} for bestillingen din av ${what.nb} {{ booking.starts }} er tilbakebetalt. {{ account.name }}`,
    subject: "Betalingen din til {{ account.name }} er tilbakebetalt",
    email: `Hei {{ person.name }},\n\n{{ payment.refunded }} {{ payment.currency }} av betalingen din for ${what.nb} {{ booking.starts }} er tilbakebetalt{% if payment.reason %}: {{ payment.reason }}{% endif %}. Pengene kommer til kortet eller kontoen din innen noen dager.${SIGN}`,
  },
  token: {
    sms: "Koden din er {{ code }}. Den er gyldig i 10 minutter. {{ account.name }}",
    subject: "Koden din",
    email: "Koden din er {{ code }}. Den er gyldig i 10 minutter.",
  },
};

export const DEFAULT_TEXTS: Record<Locale, Record<MessageKind, DefaultText>> = { en, sv, nb };

export const localeOf = (locale: string): Locale => (locale === "sv" || locale === "nb" ? locale : "en");
