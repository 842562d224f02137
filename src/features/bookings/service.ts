// Bookings: the operations routes call. Each lives in its own module; this is their one door.
export { createBooking } from "./create";
export { updateBooking } from "./update";
export { setStatus, transition, verifyWithCode } from "./transitions";
export { listBookings, LISTINGS, type Listing, type Owner } from "./list";
export { getBooking, getBookingByExternalId, loadRelated } from "./queries";
