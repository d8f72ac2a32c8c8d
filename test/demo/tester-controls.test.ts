// The tester panel's rules (demo/scripts/tester/tester-controls.ts): what each pay control sends for the payment the
// checkout shows, which payment the panel follows, and which earlier address it offers to pay late.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { earlierOf, follow, PAY_CONTROLS, transferFor } from '../../demo/scripts/tester/tester-controls.js';
import { payment, transaction } from '../checkout-state/fixtures.js';

const control = (id: string) => PAY_CONTROLS.find((c) => c.id === id)!;

describe('the tester panel', () => {
  it('pays the payment the checkout shows: exactly, half, or 110% of what is due, to its address, coin and network', () => {
    const open = payment({ address: 'TADDR', amount_crypto: '14.24', remaining_crypto: '14.24' });
    assert.deepEqual(transferFor(open, control('exact'), 6), { to: 'TADDR', asset: 'USDT', network: 'TRON', amount: '14.24' });
    assert.equal(transferFor(open, control('partial'), 6).amount, '7.12');
    assert.equal(transferFor(open, control('overpay'), 6).amount, '15.664');
  });

  it('once part has come, every control counts from the rest, never from the whole quote', () => {
    const part = payment({ amount_crypto: '14.24', received_crypto: '7.12', remaining_crypto: '7.12', transactions: [transaction(0)] });
    assert.equal(transferFor(part, control('exact'), 6).amount, '7.12');
  });

  it('each share is at least its percentage of what is due, and less than one smallest unit more (rounded up)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.integer({ min: 0, max: 18 }), fc.constantFrom(...PAY_CONTROLS), (atomic, decimals, c) => {
        const digits = atomic.toString().padStart(decimals + 1, '0');
        const due = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
        const sent = parseDecimal(transferFor(payment({ amount_crypto: due, remaining_crypto: due }), c, decimals).amount, decimals);
        assert.ok(sent * 100n >= atomic * BigInt(c.percent) && (sent - 1n) * 100n < atomic * BigInt(c.percent), `${c.id} of ${due}`);
      }),
    );
  });

  it('follows any news of its payment and any newer payment, never an older one arriving late', () => {
    const first = payment({ payment_id: 'pay_1', created_at: '2026-11-22T10:00:00.000Z' });
    const second = payment({ payment_id: 'pay_2', address: 'TNEW', created_at: '2026-11-22T10:05:00.000Z' });
    assert.equal(follow(null, first), first);
    assert.equal(follow(first, second), second);
    assert.equal(follow(second, { ...first, status: 'expired' }), second);
    const news = { ...second, status: 'underpaid' as const };
    assert.equal(follow(second, news), news);
  });

  it('offers the earlier address as soon as the checkout moves to a new one, with what was due there', () => {
    const first = payment({ payment_id: 'pay_1', address: 'TOLD', amount_crypto: '14.24', created_at: '2026-11-22T10:00:00.000Z' });
    const second = payment({ payment_id: 'pay_2', address: 'TNEW', created_at: '2026-11-22T10:05:00.000Z' });
    assert.equal(earlierOf(null, first, undefined), undefined, 'the first payment has nothing before it');
    assert.equal(earlierOf(first, { ...first, status: 'expired' }, undefined), undefined, 'news of the same payment moves nothing');
    const earlier = earlierOf(first, second, undefined);
    assert.deepEqual(earlier, { payment_id: 'pay_1', address: 'TOLD', asset: 'USDT', network: 'TRON', amount: '14.24' });
    assert.equal(earlierOf(second, second, earlier), earlier, 'it stays while the checkout stays');
    assert.equal(earlierOf(second, first, earlier), earlier, 'an older payment arriving late is not a move');
  });
});
