// The payment state machine on its own: every transition, the tolerance and rounding boundaries, lateness, supersede
// rules, held funds; then properties over random facts (fast-check) that no hand-picked example can cover.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { quoteAtomic } from '../../src/codecs/amounts.js';
import { dueWithTolerance, linkState, type LinkFacts, type PaymentFacts, type TransferFact } from '../../src/sandbox/services/payments/payment-state.js';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const QUOTE_END = at(15);
const LINK_END = at(24 * 60);
const DUE = 1_000_000n; // 1 USDT in atomic units
const STEP = 10_000n; // quoted to 2 decimals
const TOLERANCE_BPS = 50;
/** 1 USDT = 26,000 VND; the order is 26,000 VND. */
const RATE = '26000';

const transfer = (amount: bigint, seen: number, confirmedAt: number | null = null): TransferFact => ({
  amount,
  seen_at: at(seen),
  confirmed_at: confirmedAt === null ? null : at(confirmedAt),
});

function payment(transfers: TransferFact[], overrides: Partial<PaymentFacts> = {}): PaymentFacts {
  return {
    payment_id: overrides.payment_id ?? 'pay_1',
    amount_atomic: DUE,
    quote_step: STEP,
    amount_vnd: 26_000,
    rate: RATE,
    decimals: 6,
    quote_expires_at: QUOTE_END,
    created_at: at(0),
    accepted_at: null,
    transfers,
    ...overrides,
  };
}

const link = (payments: PaymentFacts[], overrides: Partial<LinkFacts> = {}): LinkFacts => ({ amount_vnd: 26_000, expires_at: LINK_END, superseded_at: null, cancelled_at: null, payments, known_until: null, ...overrides });
const state = (facts: LinkFacts, now = at(5)) => linkState(facts, now, TOLERANCE_BPS);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
const one = (transfers: TransferFact[], now = at(5), overrides: Partial<PaymentFacts> = {}) => state(link([payment(transfers, overrides)]), now).payments[0]!;

describe('payment state', () => {
  it('closes the quote of a cancelled link at once, holds what arrives after the cancel, and stays cancelled behind the clock', () => {
    const cancelled = link([payment([])], { cancelled_at: at(3) });
    const now = state(cancelled);
    assert.deepEqual([now.status, now.payments[0]!.status], ['cancelled', 'expired']);
    // The customer's wallet pays the old address after the cancel: late, held in full, never paying the link.
    const late = state(link([payment([transfer(DUE, 4, 6)])], { cancelled_at: at(3) }), at(7));
    assert.deepEqual([late.status, late.payments[0]!.status, late.payments[0]!.held_vnd, late.payments[0]!.credited_vnd], ['cancelled', 'paid_late', 26_000n, 0n]);
    const partial = state(link([payment([transfer(DUE / 2n, 4, 6)])], { cancelled_at: at(3) }), at(7)).payments[0]!;
    assert.deepEqual([partial.status, partial.held_vnd, partial.credited_vnd], ['expired', 13_000n, 0n]);
    // A network out of sight stops the link's clock before the cancel: the cancel, a decision, holds all the same.
    const behind = state(link([payment([])], { cancelled_at: at(3), known_until: at(1) }), at(5));
    assert.deepEqual([behind.status, behind.payments[0]!.status], ['cancelled', 'expired']);
    // Money sent before the cancel and found later came in time: it still pays the link.
    const inTime = state(link([payment([transfer(DUE, 2, 6)])], { cancelled_at: at(3) }), at(7));
    assert.deepEqual([inTime.status, inTime.payments[0]!.status], ['paid', 'paid']);
    // A cancel recorded after the link's end changes nothing: the link expired.
    assert.equal(state(link([payment([])], { cancelled_at: at(24 * 60 + 1) }), at(24 * 60 + 2)).status, 'expired');
  });

  it('awaits payment while nothing has arrived and the quote is open; the link is active', () => {
    const s = state(link([payment([])]));
    assert.equal(s.status, 'active');
    assert.deepEqual([s.payments[0]!.status, s.payments[0]!.remaining, s.payments[0]!.remaining_vnd], ['awaiting_payment', DUE, 26_000n]);
  });

  it('is confirming once the full amount is seen, and paid once it has its confirmations; the link with it', () => {
    assert.equal(one([transfer(DUE, 1)]).status, 'confirming');
    const paid = state(link([payment([transfer(DUE, 1, 2)])]));
    assert.deepEqual([paid.status, paid.paid_by, paid.payments[0]!.status, paid.payments[0]!.paid_at?.getTime()], ['paid', 'pay_1', 'paid', at(2).getTime()]);
  });

  it('counts a partial payment in the mempool as received at once, with the rest in crypto and VND', () => {
    const s = one([transfer(DUE / 4n, 1)]);
    assert.deepEqual([s.status, s.received, s.remaining, s.remaining_vnd], ['awaiting_payment', DUE / 4n, (DUE * 3n) / 4n, 19_500n]);
    assert.equal(one([transfer(DUE / 4n, 1, 2)]).status, 'underpaid');
  });

  it('rounds what is left up to the quote precision', () => {
    const s = one([transfer(333_333n, 1, 2)]);
    assert.equal(s.remaining, 670_000n, '0.666667 USDT left asks for 0.67');
  });

  it('accepts a total short by at most the tolerance, and not one atomic unit more', () => {
    const floor = dueWithTolerance(DUE, TOLERANCE_BPS);
    assert.equal(floor, 995_000n);
    assert.deepEqual([one([transfer(floor, 1, 2)]).status, one([transfer(floor, 1, 2)]).remaining], ['paid', 0n]);
    assert.equal(one([transfer(floor - 1n, 1, 2)]).status, 'underpaid');
  });

  it('flags an overpayment of a quote step or more, never the rounding below it, and holds the excess', () => {
    assert.deepEqual([one([transfer(DUE + STEP - 1n, 1, 2)]).overpaid, one([transfer(DUE + STEP - 1n, 1, 2)]).held_vnd], [false, 0n]);
    const over = one([transfer(DUE * 2n, 1, 2)]);
    assert.deepEqual([over.status, over.overpaid, over.value_vnd, over.held_vnd], ['paid', true, 52_000n, 26_000n]);
  });

  it('expires when the quote runs out before full payment: the confirmed part is credited while the link is open, held once it ran out', () => {
    assert.equal(one([], QUOTE_END).status, 'expired');
    const partial = state(link([payment([transfer(DUE / 2n, 1, 2)])]), at(20));
    const p = partial.payments[0]!;
    assert.deepEqual([p.status, p.value_vnd, p.credited_vnd, p.held_vnd, p.returnable_vnd, partial.covered_vnd], ['expired', 13_000n, 13_000n, 0n, 0n, 13_000n]);
    const over = state(link([payment([transfer(DUE / 2n, 1, 2)])]), LINK_END).payments[0]!;
    assert.deepEqual([over.status, over.credited_vnd, over.held_vnd, over.returnable_vnd], ['expired', 0n, 13_000n, 13_000n]);
  });

  it('is paid when the full amount was seen in time even if it confirms after the quote ran out', () => {
    assert.equal(one([transfer(DUE, 14, 30)], at(30)).status, 'paid');
  });

  it('waits for the money seen in time, not for a later transfer that was mined first: that one is held', () => {
    const transfers = [transfer(DUE, 10), transfer(DUE, 16, 17)];
    const waiting = state(link([payment(transfers)]), at(18));
    assert.deepEqual([waiting.status, waiting.payments[0]!.status], ['active', 'confirming']);
    const paid = state(link([payment([{ ...transfers[0]!, confirmed_at: at(20) }, transfers[1]!])]), at(20)).payments[0]!;
    assert.deepEqual([paid.status, paid.overpaid, paid.credited_vnd, paid.held_vnd, paid.paid_at], ['paid', true, 26_000n, 26_000n, at(20)]);
  });

  it('holds a full payment seen after the quote ran out: expired until confirmed, then paid_late; the link stays unpaid', () => {
    assert.equal(one([transfer(DUE, 16)], at(16)).status, 'expired');
    const late = state(link([payment([transfer(DUE, 16, 17)])]), at(17));
    assert.deepEqual([late.status, late.payments[0]!.status, late.payments[0]!.held_vnd], ['active', 'paid_late', 26_000n]);
    assert.equal(one([transfer(DUE / 2n, 1, 2), transfer(DUE / 2n, 16, 17)], at(17)).status, 'paid_late');
  });

  it('never credits an old quote after it was superseded: money there is held, and the new payment pays the link', () => {
    const old = payment([transfer(DUE, 6, 7)], { payment_id: 'old' });
    const current = payment([transfer(DUE, 3, 4)], { payment_id: 'new', created_at: at(2), quote_expires_at: at(20) });
    const s = state(link([old, current]), at(8));
    assert.deepEqual([s.paid_by, s.payments[0]!.status, s.payments[1]!.status], ['new', 'paid_late', 'paid']);
  });

  it('lets only the first payment to settle in time pay the link; money after that is held', () => {
    const first = payment([transfer(DUE, 1, 3)], { payment_id: 'first' });
    const second = payment([transfer(DUE, 2, 4)], { payment_id: 'second', created_at: at(2) });
    const s = state(link([first, second]), at(5));
    assert.deepEqual([s.paid_by, s.payments.map((p) => p.status)], ['first', ['paid', 'paid_late']]);
  });

  it('pays a link with a payment the merchant accepted; a later in-time payment is then held', () => {
    const held = payment([transfer(DUE, 16, 17)], { payment_id: 'held', accepted_at: at(18) });
    const s = state(link([held]), at(19));
    assert.deepEqual([s.status, s.paid_by, s.payments[0]!.status, s.payments[0]!.paid_at?.getTime()], ['paid', 'held', 'paid', at(18).getTime()]);
  });

  it('holds a payment that confirms only after a newer link replaced its expired link', () => {
    const replaced = { expires_at: at(10), superseded_at: at(20) };
    assert.equal(state(link([payment([transfer(DUE, 1)])], replaced), at(25)).payments[0]!.status, 'expired', 'seen in time, but the order moved on before it confirmed');
    const s = state(link([payment([transfer(DUE, 1, 30)])], replaced), at(31));
    assert.deepEqual([s.status, s.payments[0]!.status], ['expired', 'paid_late']);
    const before = state(link([payment([transfer(DUE, 1, 12)])], { expires_at: at(10), superseded_at: at(20) }), at(31));
    assert.deepEqual([before.status, before.payments[0]!.status], ['paid', 'paid'], 'confirmed before the new link: it paid the old one');
  });

  it('credits a partial payment whose quote ran out: the next quote asks for the rest, and the two pay the link', () => {
    const first = payment([transfer(DUE / 2n, 5, 6), transfer(DUE / 10n, 16, 17)], { payment_id: 'first' });
    const rest = (transfers: TransferFact[]) => payment(transfers, { payment_id: 'rest', created_at: at(20), quote_expires_at: at(35), amount_vnd: 13_000, amount_atomic: DUE / 2n });
    assert.equal(state(link([first]), at(18)).covered_vnd, 13_000n, 'the half seen in time; the tenth after is late');
    const s = state(link([first, rest([transfer(DUE / 2n, 21, 22)])]), at(23));
    assert.deepEqual([s.status, s.paid_by, s.paid_at?.getTime()], ['paid', 'rest', at(22).getTime()]);
    assert.deepEqual(
      s.payments.map((p) => [p.status, p.credited_vnd, p.held_vnd]),
      [['expired', 13_000n, 2_600n], ['paid', 13_000n, 0n]],
    );
  });

  it('pays the link only once the credit it counts on is confirmed too', () => {
    const first = (confirmedAt: number | null) => payment([transfer(DUE / 2n, 14, confirmedAt)], { payment_id: 'first' });
    const rest = payment([transfer(DUE / 2n, 17, 18)], { payment_id: 'rest', created_at: at(16), quote_expires_at: at(31), amount_vnd: 13_000, amount_atomic: DUE / 2n });
    const waiting = state(link([first(null), rest]), at(20));
    assert.deepEqual([waiting.status, waiting.payments.map((p) => p.status)], ['active', ['expired', 'confirming']]);
    const paid = state(link([first(30), rest]), at(30));
    assert.deepEqual([paid.status, paid.paid_by, paid.paid_at?.getTime()], ['paid', 'rest', at(30).getTime()]);
  });

  it('asks for the rest again when the credit a quote counted on left the chain', () => {
    const first = payment([], { payment_id: 'first' });
    const rest = payment([transfer(DUE / 2n, 17, 18)], { payment_id: 'rest', created_at: at(16), quote_expires_at: at(31), amount_vnd: 13_000, amount_atomic: DUE / 2n });
    const s = state(link([first, rest]), at(20));
    assert.deepEqual([s.status, s.covered_vnd, s.payments[1]!.status, s.payments[1]!.credited_vnd], ['active', 13_000n, 'expired', 13_000n]);
    assert.equal(state(link([first, rest]), LINK_END).payments[1]!.status, 'paid_late', 'once the link ran out, the merchant decides');
  });

  it('counts the credit of earlier quotes when the merchant accepts a late payment for the rest', () => {
    const first = payment([transfer(DUE / 2n, 5, 6)], { payment_id: 'first' });
    const rest = payment([transfer(DUE / 2n, 40, 41)], { payment_id: 'rest', created_at: at(20), quote_expires_at: at(35), amount_vnd: 13_000, amount_atomic: DUE / 2n, accepted_at: at(42) });
    const s = state(link([first, rest]), at(43));
    assert.deepEqual([s.paid_by, s.payments.map((p) => [p.status, p.credited_vnd, p.held_vnd])], ['rest', [['expired', 13_000n, 0n], ['paid', 13_000n, 0n]]]);
  });

  it('expires the link on time, or when a newer link replaced it', () => {
    assert.equal(state(link([]), LINK_END).status, 'expired');
    assert.equal(state(link([], { superseded_at: at(1) }), at(2)).status, 'expired');
  });
});

// Random facts: up to four payments, each with up to four transfers at random times and confirmations, random
// quote ends, supersedes and merchant decisions.
const minutes = fc.integer({ min: 0, max: 60 });
const transferArb = fc
  .tuple(fc.bigInt({ min: 1n, max: 2n * DUE }), minutes, fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }))
  .map(([amount, seen, delay]) => transfer(amount, seen, delay === null ? null : seen + delay));
const paymentArb = fc
  .tuple(fc.array(transferArb, { maxLength: 4 }), minutes, minutes, fc.option(minutes, { nil: null }))
  .map(([transfers, created, quoteEnd, accepted]) =>
    payment(
      transfers.sort((a, b) => a.seen_at.getTime() - b.seen_at.getTime()),
      { created_at: at(created), quote_expires_at: at(created + quoteEnd), accepted_at: accepted === null ? null : at(accepted) },
    ),
  );
const linkArb = fc
  .tuple(fc.array(paymentArb, { maxLength: 4 }), minutes, fc.option(minutes, { nil: null }), fc.integer({ min: 0, max: 120 }))
  .map(([payments, end, superseded, now]) => ({
    facts: link(
      payments.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map((p, i) => ({ ...p, payment_id: `pay_${i}` })),
      { expires_at: at(end), superseded_at: superseded === null ? null : at(superseded) },
    ),
    now: at(now),
  }));

/**
 * Facts the gateway can produce: a payment is replaced by a newer one only if nothing reached it while its quote was
 * open, or its quote ran out first short of what was due (the gateway refuses to open another payment otherwise, and
 * locks the payment against transfers while it decides).
 */
function realistic({ facts }: { facts: LinkFacts }): boolean {
  return facts.payments.every((p, i) => {
    const next = facts.payments[i + 1];
    if (!next) return true;
    const openUntil = Math.min(p.quote_expires_at.getTime(), next.created_at.getTime());
    const seenWhileOpen = p.transfers.filter((t) => t.seen_at.getTime() < openUntil).reduce((sum, t) => sum + t.amount, 0n);
    if (seenWhileOpen === 0n) return true;
    return p.quote_expires_at.getTime() <= next.created_at.getTime() && seenWhileOpen < dueWithTolerance(p.amount_atomic, TOLERANCE_BPS);
  });
}

/** What reached payment `i` before its quote closed and has its confirmations. */
function confirmedInTime(facts: LinkFacts, i: number): bigint {
  const p = facts.payments[i]!;
  const closes = [p.quote_expires_at, facts.expires_at, facts.payments[i + 1]?.created_at, facts.superseded_at].flatMap((d) => (d ? [d.getTime()] : []));
  const closedAt = Math.min(...closes);
  return p.transfers.filter((t) => t.seen_at.getTime() < closedAt && t.confirmed_at !== null).reduce((total, t) => total + t.amount, 0n);
}

describe('payment state: properties over random facts', () => {
  it('pays a link with at most one payment, and the link is paid exactly when one payment is', () => {
    fc.assert(
      fc.property(linkArb, ({ facts, now }) => {
        const s = state(facts, now);
        const paid = s.payments.filter((p) => p.status === 'paid');
        assert.ok(paid.length <= 1);
        assert.equal(s.status === 'paid', paid.length === 1);
        if (s.paid_by) assert.equal(s.payments[facts.payments.findIndex((p) => p.payment_id === s.paid_by)]!.status, 'paid');
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps at most one quote open on a link, and only the newest', () => {
    fc.assert(
      fc.property(linkArb.filter(realistic), ({ facts, now }) => {
        const open = state(facts, now).payments.flatMap((p, i) => (['awaiting_payment', 'underpaid', 'confirming'].includes(p.status) ? [i] : []));
        assert.ok(open.length === 0 || (open.length === 1 && open[0] === facts.payments.length - 1), `open: ${open.join()}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('never leaves a payment with enough confirmations of money seen in time confirming, and never calls money short of due paid', () => {
    fc.assert(
      fc.property(linkArb, ({ facts, now }) => {
        const s = state(facts, now);
        s.payments.forEach((p, i) => {
          const due = dueWithTolerance(facts.payments[i]!.amount_atomic, TOLERANCE_BPS);
          if (p.status === 'confirming') assert.ok(confirmedInTime(facts, i) < due);
          // A paid payment received its due, or completed what earlier quotes' credit began.
          const credited = s.payments.reduce((sum, q) => sum + q.credited_vnd, 0n);
          if (p.status === 'paid' && facts.payments[i]!.accepted_at === null) assert.ok(p.confirmed >= due || credited === BigInt(facts.amount_vnd));
          if (p.status === 'paid_late') assert.ok(p.confirmed >= due);
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('accounts for every confirmed coin once its quote is over: what the order holds = credited + held, none counted twice', () => {
    fc.assert(
      fc.property(linkArb, ({ facts, now }) => {
        const s = state(facts, now);
        let holds = 0n;
        let credited = 0n;
        let held = 0n;
        s.payments.forEach((p) => {
          assert.ok(p.held_vnd >= 0n && p.credited_vnd >= 0n);
          holds += p.value_vnd;
          credited += p.credited_vnd;
          held += p.held_vnd;
          const open = ['awaiting_payment', 'underpaid', 'confirming'].includes(p.status);
          // Confirmed money at a payment whose quote is over is worth at least 1 VND per atomic unit's worth: never stranded.
          if (!open && p.confirmed > 0n) assert.ok(p.value_vnd > 0n);
          // Credit that may still pay the link is the customer's to complete; everything is returnable once it is paid.
          assert.equal(p.returnable_vnd, s.status === 'paid' ? p.value_vnd : p.held_vnd);
        });
        assert.equal(holds, credited + held);
        // The order is credited at most its amount; exactly its amount when its money paid it, less while unpaid.
        const amount = BigInt(facts.amount_vnd);
        const accepted = s.paid_by !== null && facts.payments.find((p) => p.payment_id === s.paid_by)!.accepted_at !== null;
        if (s.status !== 'paid') assert.ok(credited < amount, `unpaid, yet credited ${credited}`);
        else if (accepted) assert.ok(credited <= amount);
        else assert.equal(credited, amount);
      }),
      { numRuns: 2000 },
    );
  });

  it('pays an order through quotes each asking for what the earlier ones left, once all their money is confirmed', () => {
    // Each new quote is for the order less what reached earlier quotes in time (customer-checkout.ts, open); each
    // quote receives some of it in time, some late, and the last one the rest.
    const quoteArb = fc.record({
      share: fc.integer({ min: 0, max: 100 }),
      late: fc.bigInt({ min: 0n, max: DUE }),
      delay: fc.integer({ min: 1, max: 30 }),
    });
    fc.assert(
      fc.property(fc.array(quoteArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 10_000, max: 900_000 }), (quotes, amount) => {
        let facts = link([], { amount_vnd: amount });
        quotes.forEach(({ share, late, delay }, i) => {
          const start = i * 20;
          const rest = BigInt(amount) - state(facts, at(start)).covered_vnd;
          assert.ok(rest > 0n, 'the earlier quotes were partial');
          const atomic = quoteAtomic(rest, RATE, 6, STEP);
          const last = i === quotes.length - 1;
          const sent = last ? atomic : (atomic * BigInt(share)) / 100n;
          const transfers = [sent > 0n ? transfer(last ? sent : min(sent, dueWithTolerance(atomic, TOLERANCE_BPS) - 1n), start + 1, start + 1 + delay) : null, late > 0n ? transfer(late, start + 16, start + 17) : null];
          const p = payment(transfers.filter((t) => t !== null && t.amount > 0n) as TransferFact[], {
            payment_id: `pay_${i}`,
            amount_atomic: atomic,
            amount_vnd: Number(rest),
            created_at: at(start),
            quote_expires_at: at(start + 15),
          });
          facts = { ...facts, payments: [...facts.payments, p] };
        });
        const s = state(facts, at(quotes.length * 20 + 60));
        assert.equal(s.status, 'paid');
        assert.equal(s.paid_by, `pay_${quotes.length - 1}`);
        assert.equal(s.payments.reduce((sum, p) => sum + p.credited_vnd, 0n), BigInt(amount), 'credited exactly the order');
        assert.equal(s.payments.reduce((sum, p) => sum + p.value_vnd, 0n), BigInt(amount) + s.payments.reduce((sum, p) => sum + p.held_vnd, 0n));
      }),
      { numRuns: 1000 },
    );
  });

  it('depends only on the facts: the same facts give the same state, and later time never un-pays a link', () => {
    fc.assert(
      fc.property(linkArb, fc.integer({ min: 0, max: 600 }), ({ facts, now }, later) => {
        const s = state(facts, now);
        assert.deepEqual(state(facts, now), s);
        const after = state(facts, new Date(now.getTime() + later * 60_000));
        if (s.status === 'paid') assert.deepEqual([after.status, after.paid_by], ['paid', s.paid_by]);
      }),
      { numRuns: 1000 },
    );
  });

  it('stays the same until stable_until: the clock alone changes nothing before it', () => {
    fc.assert(
      fc.property(linkArb, fc.integer({ min: 0, max: 1000 }), ({ facts, now }, permille) => {
        const s = state(facts, now);
        assert.ok(s.stable_until > now.getTime());
        // The last millisecond before it, and one in between; some time later when nothing is left to happen.
        const last = Number.isFinite(s.stable_until) ? s.stable_until - 1 : now.getTime() + 600 * 60_000;
        for (const later of [last, now.getTime() + Math.floor(((last - now.getTime()) * permille) / 1000)]) {
          assert.deepEqual(state(facts, new Date(later)), s, `at +${later - now.getTime()} ms`);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
