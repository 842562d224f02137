// The ledger folded from a booking's payment facts (src/domain/payment-ledger.ts): the same facts
// in any order, any of them seen twice, fold to the same money; a refund that failed no longer
// counts; a charge's refunded total holds the refunds it was taken after, not those after it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ledgerOf, moneyStatus, ownPayment, refundDue, type LedgerFact } from "../../src/domain/payment-ledger";

let ids = 0;
const fact = (partial: Partial<LedgerFact> & Pick<LedgerFact, "kind" | "object_id" | "status">): LedgerFact => ({
  id: (ids += 1),
  payment_intent_id: "pi_1",
  paid: false,
  amount: 0,
  observed_at: 1_000,
  ...partial,
});

const paid = fact({ kind: "checkout", object_id: "cs_1", status: "complete", paid: true, amount: 45_000, observed_at: 1_000 });
const open = fact({ kind: "checkout", object_id: "cs_1", status: "open", payment_intent_id: null, observed_at: 900 });
const refundPending = fact({ kind: "refund", object_id: "re_1", status: "pending", amount: 10_000, observed_at: 2_000 });
const refundDone = fact({ kind: "refund", object_id: "re_1", status: "succeeded", amount: 10_000, observed_at: 2_100 });
const refundFailed = fact({ kind: "refund", object_id: "re_1", status: "failed", amount: 10_000, observed_at: 2_200 });
const second = fact({ kind: "refund", object_id: "re_2", status: "succeeded", amount: 5_000, observed_at: 3_000 });

const money = (facts: LedgerFact[]) => {
  const ledger = ledgerOf(facts);
  return ledger.payments.map((p) => ({ key: p.key, amount: p.amount, refunded: p.refunded, failed: p.failedRefunds }));
};

describe("ledgerOf", () => {
  it("folds any order and any duplicates of the same facts to the same money", () => {
    const all = [open, paid, refundPending, refundDone, refundFailed, second];
    const expected = money(all);
    expect(expected).toEqual([{ key: "pi_1", amount: 45_000, refunded: 5_000, failed: 1 }]);
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: all.length }), fc.array(fc.constantFrom(...all)), (order, again) => {
        expect(money([...order, ...again])).toEqual(expected);
      }),
    );
  });

  it("no fact moves an object back: a pending refund seen after its success still counts as given, its failure as not", () => {
    expect(money([paid, refundDone, refundPending])[0].refunded).toBe(10_000);
    expect(money([paid, refundFailed, refundDone, refundPending])[0].refunded).toBe(0);
  });

  it("a charge's total counts the refunds it was taken after, adds those seen later and takes off those that failed later", () => {
    const total = fact({ kind: "charge", object_id: "ch_1", status: "refunded", amount: 10_000, observed_at: 2_500 });
    const later = fact({ kind: "refund", object_id: "re_3", status: "succeeded", amount: 35_000, observed_at: 4_000 });
    expect(money([paid, total])[0].refunded).toBe(10_000);
    expect(money([paid, total, later])[0].refunded).toBe(45_000);
    expect(money([paid, refundDone, total])[0].refunded).toBe(10_000);
    const failedLater = fact({ kind: "refund", object_id: "re_1", status: "failed", amount: 10_000, observed_at: 3_000 });
    expect(money([paid, refundDone, total, failedLater])[0].refunded).toBe(0);
  });

  it("keeps a second payment apart and owes it back in full; the booking's own only up to its target", () => {
    const other = fact({ kind: "checkout", object_id: "cs_2", status: "complete", paid: true, amount: 45_000, payment_intent_id: "pi_2", observed_at: 5_000 });
    const ledger = ledgerOf([other, paid]);
    const own = ownPayment(ledger, null)!;
    expect(own.paymentIntentId).toBe("pi_1");
    expect(ledger.payments.map((p) => refundDue(p, own, 0))).toEqual([0, 45_000]);
    expect(refundDue(own, own, 45_000)).toBe(45_000);
    expect(ownPayment(ledger, "pi_2")!.paymentIntentId).toBe("pi_2");
  });

  it("reads a status from what came back", () => {
    const [payment] = ledgerOf([paid, second]).payments;
    expect(moneyStatus(payment)).toBe("partially_refunded");
    expect(moneyStatus(ledgerOf([paid]).payments[0])).toBe("paid");
    expect(moneyStatus(ledgerOf([paid, fact({ kind: "refund", object_id: "re_9", status: "succeeded", amount: 45_000 })]).payments[0])).toBe("refunded");
  });

  it("an asynchronous payment that failed, with nothing paid, reads as failed", () => {
    const failed = fact({ kind: "checkout", object_id: "cs_1", status: "failed", payment_intent_id: null });
    expect(ledgerOf([open, failed]).failed).toBe(true);
    expect(ledgerOf([open, failed, paid]).failed).toBe(false);
  });
});
