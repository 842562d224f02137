// A booking's payment as stored and answered: its shape lives beside the schema that stores it
// (db/booking-payment.ts), since the schema is on a floor below the features.
export { PAYMENT_STATUSES, type BookingPayment, type PaymentStatus } from "../../db/booking-payment";
