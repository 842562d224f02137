// How many holds may live at once (docs/decisions/holds.md): numbers the booking site documents,
// checked inside the hold's own guarded insert so parallel requests cannot pass them together.

/** Live holds per visitor (their address, IPv6 by /64, as the rate limiter groups them) on one booking site. */
export const MAX_LIVE_HOLDS_PER_VISITOR = 3;
/** Live holds per account, site and private API together: the most a crowd of addresses can block. */
export const MAX_LIVE_HOLDS_PER_ACCOUNT = 50;
/** The longest a hold may live, and the account setting's bounds. */
export const MAX_HOLD_MINUTES = 15;
