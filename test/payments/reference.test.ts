// The reference model of payment statuses (test/helpers/payment-reference.ts) on the docs' own cases: what the
// sandbox controls lead to (docs/payment-lifecycle.md, "Sandbox controls"), held funds and credit across quotes. The
// model test trusts it as its oracle, so it is checked here against what the docs say, not against the gateway.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedLink, type Order, type Quote, type SentMoney } from '../helpers/payment-reference.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-22T00:00:00Z');
const at = (minutes: number) => T0 + minutes * MINUTE;

/** USDT on TRON at 25,000 VND: 50,000 VND is 2 USDT (2,000,000 atomic units), quoted to 0.01. */
function quote(openedAt: number, sent: SentMoney[], extra: Partial<Quote> = {}): Quote {
  return { network: 'TRON', amountAtomic: 2_000_000n, step: 10_000n, amountVnd: 50_000, rate: '25000', decimals: 6, openedAt, endsAt: openedAt + 15 * MINUTE, acceptedAt: null, refundedVnd: 0, sent, ...extra };
}
const seen = (amount: bigint, minutes: number): SentMoney => ({ amount, seenAt: at(minutes), confirmations: 0, confirmedAt: null });
const confirmed = (amount: bigint, minutes: number, confirmedMinutes = minutes + 1): SentMoney => ({ amount, seenAt: at(minutes), confirmations: 3, confirmedAt: at(confirmedMinutes) });
const order = (quotes: Quote[], extra: Partial<Order> = {}): Order => ({ amountVnd: 50_000, expiresAt: at(24 * 60), replacedAt: null, quotes, ...extra });
const summary = (o: Order, minutes: number) => {
  const link = expectedLink(o, at(minutes));
  return { link: link.status, payments: link.payments.map((p) => [p.status, p.creditedVnd, p.heldVnd]), refundable: link.refundableVnd };
};

describe('reference model of payment statuses', () => {
  it('the quoted amount: confirming once seen, paid once confirmed; the link holds its amount', () => {
    assert.deepEqual(summary(order([quote(at(0), [seen(2_000_000n, 1)])]), 2), { link: 'active', payments: [['confirming', 0, 0]], refundable: 0 });
    assert.deepEqual(summary(order([quote(at(0), [confirmed(2_000_000n, 1)])]), 3), { link: 'paid', payments: [['paid', 50_000, 0]], refundable: 50_000 });
    // Two confirmations of three are not enough on TRON.
    const two = { ...confirmed(2_000_000n, 1), confirmations: 2, confirmedAt: null };
    assert.equal(expectedLink(order([quote(at(0), [two])]), at(3)).payments[0]!.status, 'confirming');
  });

  it('the tolerance: 0.4% short pays, 0.6% short is underpaid once confirmed', () => {
    assert.equal(expectedLink(order([quote(at(0), [confirmed(1_992_000n, 1)])]), at(3)).payments[0]!.status, 'paid');
    assert.equal(expectedLink(order([quote(at(0), [confirmed(1_988_000n, 1)])]), at(3)).payments[0]!.status, 'underpaid');
    assert.equal(expectedLink(order([quote(at(0), [seen(1_988_000n, 1)])]), at(3)).payments[0]!.status, 'awaiting_payment');
  });

  it('more than the quote: paid and overpaid, the excess held', () => {
    const [p] = expectedLink(order([quote(at(0), [confirmed(2_200_000n, 1)])]), at(3)).payments;
    assert.deepEqual([p!.status, p!.overpaid, p!.creditedVnd, p!.heldVnd], ['paid', true, 50_000, 5_000]);
  });

  it('the full amount after the quote ran out: paid_late, held, never paying the link; the merchant may accept it', () => {
    const late = quote(at(0), [confirmed(2_000_000n, 20)]);
    assert.deepEqual(summary(order([late]), 30), { link: 'active', payments: [['paid_late', 0, 50_000]], refundable: 50_000 });
    assert.deepEqual(summary(order([{ ...late, acceptedAt: at(25) }]), 30), { link: 'paid', payments: [['paid', 50_000, 0]], refundable: 50_000 });
  });

  it('money at a superseded payment’s address is held; the newer quote is not paid by it', () => {
    const o = order([quote(at(0), [confirmed(2_000_000n, 6)]), quote(at(5), [])]);
    assert.deepEqual(summary(o, 10), { link: 'active', payments: [['paid_late', 0, 50_000], ['awaiting_payment', 0, 0]], refundable: 50_000 });
  });

  it('credit across quotes: a partial payment keeps its VND, the next quote asks for the rest and pays the link', () => {
    // A third of the amount in time (666,667 units: 16,667 VND rounded up), then the quote runs out.
    const partial = quote(at(0), [confirmed(666_667n, 1)]);
    const before = expectedLink(order([partial]), at(16));
    assert.deepEqual([before.payments[0]!.status, before.payments[0]!.creditedVnd, before.receivedVnd], ['expired', 16_667, 16_667]);
    const rest = quote(at(20), [confirmed(1_340_000n, 21)], { amountAtomic: 1_340_000n, amountVnd: 33_333 });
    const after = expectedLink(order([partial, rest]), at(25));
    assert.deepEqual(after.quotedVnd, [50_000, 33_333]);
    assert.deepEqual(summary(order([partial, rest]), 25), { link: 'paid', payments: [['expired', 16_667, 0], ['paid', 33_333, 0]], refundable: 50_000 });
  });

  it('a credit is held once the link ran out unpaid, and waits while a payment is confirming', () => {
    const partial = quote(at(0), [confirmed(666_667n, 1)]);
    assert.deepEqual(summary(order([partial], { expiresAt: at(10) }), 11), { link: 'expired', payments: [['expired', 0, 16_667]], refundable: 16_667 });
    const rest = quote(at(5), [seen(1_340_000n, 6)], { amountAtomic: 1_340_000n, amountVnd: 33_333 });
    assert.deepEqual(summary(order([partial, rest], { expiresAt: at(10) }), 11), { link: 'expired', payments: [['expired', 16_667, 0], ['confirming', 0, 0]], refundable: 0 });
  });

  it('a newer link for the order: the old one’s confirming payment is held once confirmed', () => {
    const o = order([quote(at(0), [confirmed(2_000_000n, 1, 12)])], { expiresAt: at(5), replacedAt: at(10) });
    assert.deepEqual(summary(o, 13), { link: 'expired', payments: [['paid_late', 0, 50_000]], refundable: 50_000 });
  });
});
