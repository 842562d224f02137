// The account's `verification_method`: how a public booking is proven before it counts (spec:
// Account; docs/decisions/bookings.md). 0 is none.
export const SMS_VERIFICATION = 1;
export const EMAIL_VERIFICATION = 2;
