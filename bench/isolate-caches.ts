// What an isolate remembers of the accounts it served: emptied, the next request of any account is
// what a fresh isolate's first one pays (the routes bench's and the wait tests' cold samples),
// without a fresh account and its fixtures per sample.
import { forgetAllLists } from "../src/features/bookings/list-cache";
import { forgetAllAnswers } from "../src/features/slots/answer-cache";
import { forgetAllAccounts } from "../src/http/account-cache";

/** The accounts by key and subdomain, the slot answers and the booking-list answers, with what they knew of versions. */
export function forgetIsolateCaches(): void {
  forgetAllAccounts();
  forgetAllAnswers();
  forgetAllLists();
}
