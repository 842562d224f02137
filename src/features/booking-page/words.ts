// Every word the booking page and the widget show, in the account's locale (en, sv, nb).
import type { Locale } from "../../domain/slot-format";

const WORDS = {
  en: {
    lang: "en", services: "Services", other: "Other services", chooseService: "Choose a service", chooseDay: "Choose a day",
    chooseTime: "Choose a time", noDays: "No free times this month.", noSlots: "No times on this day.", taken: "taken",
    free: "free", prevMonth: "Previous month", nextMonth: "Next month", timesIn: "Times are in", back: "Back",
    weekdays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    yourDetails: "Your details", name: "Name", email: "Email", phone: "Mobile number", phoneHint: "International form, e.g. +4791234567",
    phoneInvalid: "Enter the number in international form, starting with +", book: "Book", needsJs: "Booking needs JavaScript switched on.",
    justTaken: "That time was just taken. Please choose another.", failed: "Something went wrong. Please try again.",
    yourBooking: "Your booking", service: "Service", time: "Time", state: "Status", code: "Code", codeHint: "We sent you a code. Enter it to confirm the booking.",
    verify: "Confirm", wrongCode: "The code is not right.", tooManyTries: "Too many wrong codes. This booking can no longer be confirmed.",
    addToCalendar: "Add to calendar (.ics)", cancel: "Cancel booking", cancelled: "The booking is cancelled.",
    notFound: "This booking was not found.", loading: "Loading…",
    holdFor: "We hold this time for you for", holdLapsed: "The hold has lapsed: the time may still be free, but is no longer kept for you.",
    offerTitle: "A seat is free for you", heldUntil: "Held for you until", accept: "Accept", letGo: "Let it go",
    offerPassed: "The seat goes to the next in line.", offerInvalid: "This offer link is not valid.",
    offerStates: {
      waiting: "You are in line for this time. We will write to you when a seat frees.", accepted: "You have accepted this offer: the time is booked.",
      expired: "This offer has expired, and the seat has passed to the next in line.", left: "You have left the line for this time.",
    } as Record<string, string>,
    joinWaitlist: "Join the waitlist", joinShort: "join the waitlist", waitHint: "This time is full. Join the line, and we will e-mail you if a seat frees.",
    inLine: "You are in line. We will e-mail you if a seat frees.",
    payment: "Payment", pay: "Pay", refunded: "Refunded", confirmingPayment: "Confirming your payment…", checkAgain: "Check again",
    paymentCancelled: "The payment was not completed. Pay to keep this time.",
    paidAwaitingConfirmation: "Your payment is received. The booking now waits for confirmation.",
    paymentNotConfirmed: "The booking could not be confirmed by your payment.",
    // A partly refunded payment reads "450.00 NOK · paid · Refunded 200.00 NOK" (payment-line.ts).
    paymentStates: {
      pending: "not paid yet", paid: "paid", partially_refunded: "paid", failed: "payment failed", expired: "not paid in time", canceled: "not paid",
    } as Record<string, string>,
    states: {
      awaiting_verification: "awaiting your code", awaiting_payment: "awaiting payment", awaiting_confirmation: "awaiting confirmation",
      confirmed: "confirmed", declined: "declined", cancelled: "cancelled", deleted: "deleted", verification_expired: "expired",
    } as Record<string, string>,
  },
  sv: {
    lang: "sv", services: "Tjänster", other: "Övriga tjänster", chooseService: "Välj en tjänst", chooseDay: "Välj en dag",
    chooseTime: "Välj en tid", noDays: "Inga lediga tider den här månaden.", noSlots: "Inga tider den här dagen.", taken: "upptagen",
    free: "ledig", prevMonth: "Föregående månad", nextMonth: "Nästa månad", timesIn: "Tiderna är i", back: "Tillbaka",
    weekdays: ["mån", "tis", "ons", "tor", "fre", "lör", "sön"],
    months: ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"],
    yourDetails: "Dina uppgifter", name: "Namn", email: "E-post", phone: "Mobilnummer", phoneHint: "Internationell form, t.ex. +46701234567",
    phoneInvalid: "Ange numret i internationell form, med + först", book: "Boka", needsJs: "För att boka behöver JavaScript vara påslaget.",
    justTaken: "Tiden blev just bokad. Välj en annan.", failed: "Något gick fel. Försök igen.",
    yourBooking: "Din bokning", service: "Tjänst", time: "Tid", state: "Status", code: "Kod", codeHint: "Vi har skickat en kod till dig. Ange den för att bekräfta bokningen.",
    verify: "Bekräfta", wrongCode: "Koden stämmer inte.", tooManyTries: "För många felaktiga koder. Bokningen kan inte längre bekräftas.",
    addToCalendar: "Lägg till i kalendern (.ics)", cancel: "Avboka", cancelled: "Bokningen är avbokad.",
    notFound: "Bokningen hittades inte.", loading: "Laddar…",
    holdFor: "Vi håller tiden åt dig i", holdLapsed: "Tiden hålls inte längre åt dig, men kan fortfarande vara ledig.",
    offerTitle: "En plats är ledig för dig", heldUntil: "Hålls åt dig till", accept: "Acceptera", letGo: "Släpp platsen",
    offerPassed: "Platsen går till nästa i kön.", offerInvalid: "Den här länken till erbjudandet är inte giltig.",
    offerStates: {
      waiting: "Du står i kö för den här tiden. Vi hör av oss när en plats blir ledig.", accepted: "Du har accepterat erbjudandet: tiden är bokad.",
      expired: "Erbjudandet har gått ut, och platsen har gått till nästa i kön.", left: "Du har lämnat kön för den här tiden.",
    } as Record<string, string>,
    joinWaitlist: "Ställ dig i kö", joinShort: "ställ dig i kö", waitHint: "Tiden är fullbokad. Ställ dig i kö, så mejlar vi dig om en plats blir ledig.",
    inLine: "Du står i kö. Vi mejlar dig om en plats blir ledig.",
    payment: "Betalning", pay: "Betala", refunded: "Återbetalat", confirmingPayment: "Vi bekräftar din betalning…", checkAgain: "Kontrollera igen",
    paymentCancelled: "Betalningen slutfördes inte. Betala för att behålla tiden.",
    paidAwaitingConfirmation: "Vi har tagit emot din betalning. Bokningen väntar nu på bekräftelse.",
    paymentNotConfirmed: "Bokningen kunde inte bekräftas med din betalning.",
    paymentStates: {
      pending: "inte betald än", paid: "betald", partially_refunded: "betald", failed: "betalningen misslyckades", expired: "inte betald i tid", canceled: "inte betald",
    } as Record<string, string>,
    states: {
      awaiting_verification: "väntar på din kod", awaiting_payment: "väntar på betalning", awaiting_confirmation: "väntar på bekräftelse",
      confirmed: "bekräftad", declined: "avböjd", cancelled: "avbokad", deleted: "borttagen", verification_expired: "har gått ut",
    } as Record<string, string>,
  },
  nb: {
    lang: "nb", services: "Tjenester", other: "Andre tjenester", chooseService: "Velg en tjeneste", chooseDay: "Velg en dag",
    chooseTime: "Velg et tidspunkt", noDays: "Ingen ledige tider denne måneden.", noSlots: "Ingen tider denne dagen.", taken: "opptatt",
    free: "ledig", prevMonth: "Forrige måned", nextMonth: "Neste måned", timesIn: "Tidene er i", back: "Tilbake",
    weekdays: ["man", "tir", "ons", "tor", "fre", "lør", "søn"],
    months: ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "desember"],
    yourDetails: "Dine opplysninger", name: "Navn", email: "E-post", phone: "Mobilnummer", phoneHint: "Internasjonal form, f.eks. +4791234567",
    phoneInvalid: "Skriv nummeret i internasjonal form, med + først", book: "Bestill", needsJs: "For å bestille må JavaScript være slått på.",
    justTaken: "Tiden ble nettopp tatt. Velg en annen.", failed: "Noe gikk galt. Prøv igjen.",
    yourBooking: "Din bestilling", service: "Tjeneste", time: "Tid", state: "Status", code: "Kode", codeHint: "Vi har sendt deg en kode. Skriv den inn for å bekrefte bestillingen.",
    verify: "Bekreft", wrongCode: "Koden er feil.", tooManyTries: "For mange feil koder. Bestillingen kan ikke lenger bekreftes.",
    addToCalendar: "Legg til i kalenderen (.ics)", cancel: "Avbestill", cancelled: "Bestillingen er avbestilt.",
    notFound: "Fant ikke bestillingen.", loading: "Laster…",
    holdFor: "Vi holder av tiden for deg i", holdLapsed: "Tiden holdes ikke lenger av for deg, men kan fortsatt være ledig.",
    offerTitle: "En plass er ledig for deg", heldUntil: "Holdes av for deg til", accept: "Godta", letGo: "Gi fra meg plassen",
    offerPassed: "Plassen går til neste i køen.", offerInvalid: "Denne lenken til tilbudet er ikke gyldig.",
    offerStates: {
      waiting: "Du står i kø for denne tiden. Vi gir beskjed når en plass blir ledig.", accepted: "Du har godtatt tilbudet: tiden er bestilt.",
      expired: "Tilbudet har gått ut, og plassen har gått til neste i køen.", left: "Du har forlatt køen for denne tiden.",
    } as Record<string, string>,
    joinWaitlist: "Sett deg på venteliste", joinShort: "venteliste", waitHint: "Tiden er full. Sett deg på ventelisten, så sender vi deg e-post hvis en plass blir ledig.",
    inLine: "Du står på ventelisten. Vi sender deg e-post hvis en plass blir ledig.",
    payment: "Betaling", pay: "Betal", refunded: "Refundert", confirmingPayment: "Vi bekrefter betalingen din…", checkAgain: "Sjekk igjen",
    paymentCancelled: "Betalingen ble ikke fullført. Betal for å beholde tiden.",
    paidAwaitingConfirmation: "Vi har mottatt betalingen din. Bestillingen venter nå på bekreftelse.",
    paymentNotConfirmed: "Bestillingen kunne ikke bekreftes med betalingen din.",
    paymentStates: {
      pending: "ikke betalt ennå", paid: "betalt", partially_refunded: "betalt", failed: "betalingen mislyktes", expired: "ikke betalt i tide", canceled: "ikke betalt",
    } as Record<string, string>,
    states: {
      awaiting_verification: "venter på koden din", awaiting_payment: "venter på betaling", awaiting_confirmation: "venter på bekreftelse",
      confirmed: "bekreftet", declined: "avslått", cancelled: "avbestilt", deleted: "slettet", verification_expired: "utløpt",
    } as Record<string, string>,
  },
} satisfies Record<Locale, unknown>;

export type Words = (typeof WORDS)["en"];

export const wordsFor = (locale: string): Words => WORDS[locale === "sv" || locale === "nb" ? locale : "en"];
