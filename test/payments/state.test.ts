// The payment state machine on its own: every transition, the tolerance boundary, lateness.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentStatus } from '../../src/contract/index.js';
import { dueWithTolerance, paymentState, type ObservedTransfer } from '../../src/sandbox/services/payment-state.js';

const QUOTE_END = new Date('2026-11-22T10:15:00Z');
const BEFORE = new Date('2026-11-22T10:05:00Z');
const AFTER = new Date('2026-11-22T10:20:00Z');
const DUE = 1_000_000n; // 1 USDT in atomic units
const TOLERANCE_BPS = 50;

const transfer = (amount: bigint, confirmations: number, seen_at = BEFORE): ObservedTransfer => ({ amount, confirmations, seen_at });

function state(transfers: ObservedTransfer[], { now = BEFORE, status = 'awaiting_payment' as PaymentStatus } = {}) {
  return paymentState({ status, amount_atomic: DUE, quote_expires_at: QUOTE_END, confirmations_required: 3, transfers }, now, TOLERANCE_BPS);
}

describe('payment state', () => {
  it('awaits payment while nothing has arrived and the quote is open', () => {
    assert.deepEqual(state([]), { status: 'awaiting_payment', overpaid: false, received: 0n, remaining: DUE });
  });

  it('is confirming once the full amount is seen, and paid once it has its confirmations', () => {
    assert.equal(state([transfer(DUE, 0)]).status, 'confirming');
    assert.equal(state([transfer(DUE, 2)]).status, 'confirming');
    assert.equal(state([transfer(DUE, 3)]).status, 'paid');
  });

  it('is underpaid when a confirmed partial payment is below what is due, then paid when the rest confirms', () => {
    const half = transfer(DUE / 2n, 3);
    assert.deepEqual(state([half]), { status: 'underpaid', overpaid: false, received: DUE / 2n, remaining: DUE / 2n });
    assert.equal(state([half, transfer(DUE / 2n, 0)]).status, 'confirming');
    assert.equal(state([half, transfer(DUE / 2n, 3)]).status, 'paid');
  });

  it('counts a partial payment still in the mempool as received, not yet as underpaid', () => {
    const s = state([transfer(DUE / 4n, 0)]);
    assert.equal(s.status, 'awaiting_payment');
    assert.equal(s.remaining, DUE - DUE / 4n);
  });

  it('accepts a total short by at most the tolerance, and not one atomic unit more', () => {
    const floor = dueWithTolerance(DUE, TOLERANCE_BPS);
    assert.equal(floor, 995_000n);
    assert.deepEqual(state([transfer(floor, 3)]), { status: 'paid', overpaid: false, received: floor, remaining: 0n });
    assert.equal(state([transfer(floor - 1n, 3)]).status, 'underpaid');
  });

  it('flags an overpayment on a paid payment, also when it comes after the payment was paid', () => {
    assert.deepEqual(state([transfer(DUE + 1n, 3)]), { status: 'paid', overpaid: true, received: DUE + 1n, remaining: 0n });
    const later = state([transfer(DUE, 9), transfer(5n, 0, AFTER)], { now: AFTER, status: 'paid' });
    assert.deepEqual([later.status, later.overpaid], ['paid', true]);
  });

  it('expires when the quote runs out before full payment, keeping what was received', () => {
    assert.equal(state([], { now: QUOTE_END }).status, 'expired');
    assert.deepEqual(state([transfer(DUE / 2n, 3)], { now: AFTER }), { status: 'expired', overpaid: false, received: DUE / 2n, remaining: DUE / 2n });
  });

  it('is paid when the full amount was seen in time even if it confirms after the quote ran out', () => {
    assert.equal(state([transfer(DUE, 3, BEFORE)], { now: AFTER }).status, 'paid');
  });

  it('holds a full payment seen after the quote ran out as paid_late, once confirmed', () => {
    assert.equal(state([transfer(DUE, 0, AFTER)], { now: AFTER }).status, 'expired');
    assert.equal(state([transfer(DUE, 3, AFTER)], { now: AFTER }).status, 'paid_late');
    assert.equal(state([transfer(DUE / 2n, 3, BEFORE), transfer(DUE / 2n, 3, AFTER)], { now: AFTER }).status, 'paid_late');
  });

  it('never leaves paid', () => {
    assert.equal(state([], { now: AFTER, status: 'paid' }).status, 'paid');
    assert.equal(state([], { now: AFTER, status: 'paid_late' }).status, 'paid_late');
  });
});
