// The fee helper's arithmetic (src/checkout/exchange-fee.ts): what the customer types, once the exchange has taken its
// configured fee, always arrives at or above the amount due, and never a whole quote step (the asset's smallest unit
// shown) or more above it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { amountToType, MAX_PLACES } from '../../src/checkout/exchange-fee.js';

/** A decimal string of `atomic` units of 10^-places. */
const decimal = (atomic: bigint, places: number): string => {
  const digits = atomic.toString().padStart(places + 1, '0');
  return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
};

/** `text` in units of 10^-scale, by string arithmetic of its own (not the module's). */
const atScale = (text: string, scale: number): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
};

test('what is typed, less the fee, arrives at or above the amount due and less than one quote step above', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: MAX_PLACES }),
      fc.integer({ min: 0, max: MAX_PLACES }),
      fc.bigInt({ min: 1n, max: 10n ** 24n }),
      fc.bigInt({ min: 0n, max: 10n ** 22n }),
      (decimals, feePlaces, dueAtomic, feeAtomic) => {
        const due = decimal(dueAtomic, decimals);
        const fee = decimal(feeAtomic, feePlaces);
        const typed = amountToType(due, fee, decimals);
        const scale = Math.max(decimals, feePlaces);
        const arrives = atScale(typed, scale) - atScale(fee, scale);
        const dueAt = atScale(due, scale);
        const step = 10n ** BigInt(scale - decimals);
        assert.ok(arrives >= dueAt, `typed ${typed} less fee ${fee} is below the due ${due}`);
        assert.ok(arrives - dueAt < step, `typed ${typed} less fee ${fee} is a step or more above the due ${due}`);
        assert.ok((typed.split('.')[1]?.length ?? 0) <= decimals, `${typed} has more places than the quote's ${decimals}`);
      },
    ),
    { numRuns: 2_000 },
  );
});

test('the issue\'s case: 46.92 USDT due, 1 USDT fee on TRC-20 → type 47.92; a fee below the step rounds the sum up', () => {
  assert.equal(amountToType('46.92', '1', 2), '47.92');
  assert.equal(amountToType('0.00123456', '0.0000125', 8), '0.00124706');
  assert.equal(amountToType('0.001', '0.00000001', 6), '0.001001');
});

test('bad input names the field and the rule', () => {
  assert.throws(() => amountToType('1.5', '1e-3', 2), /^RangeError: fee: "1e-3" is not a decimal number such as 1 or 0\.8$/);
  assert.throws(() => amountToType('1.555', '1', 2), /^RangeError: due: "1\.555" has more than the quote's 2 decimal places$/);
  assert.throws(() => amountToType('1', '-1', 2), /fee: "-1" is not a decimal number/);
  assert.throws(() => amountToType('1', '1', 19), /decimals: 19 is not a whole number from 0 to 18/);
  assert.throws(() => amountToType('1', `0.${'1'.repeat(19)}`, 2), /fee: .* has more than 18 decimal places/);
});

test('the payment view\'s helper: what to type for the amount still due, after the asset\'s configured fee; none without a fee', async () => {
  const { exchangeAmount, percentOfBps } = await import('../../src/checkout/pay-checkout/views/from-exchange.js');
  const { checkoutAsset, checkoutView, payment } = await import('./fixtures.js');
  const withFee = (fee: string | null | undefined) => checkoutView({ methods: [{ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', assets: [checkoutAsset({ withdrawal_fee: fee })] }] });
  assert.deepEqual(exchangeAmount(withFee('1'), payment({ amount_crypto: '46.92', remaining_crypto: '46.92' })), { due: '46.92', fee: '1', typed: '47.92' });
  // Once part has arrived, the rest is what must arrive.
  assert.deepEqual(exchangeAmount(withFee('0.8'), payment({ amount_crypto: '46.92', received_crypto: '45.92', remaining_crypto: '1' })), { due: '1', fee: '0.8', typed: '1.8' });
  // A fee finer than the quote's step rounds the sum up to it.
  assert.equal(exchangeAmount(withFee('0.001'), payment({ amount_crypto: '46.92', remaining_crypto: '46.92' }))?.typed, '46.93');
  for (const fee of [null, undefined, '0', '0.00']) assert.equal(exchangeAmount(withFee(fee), payment()), undefined, `fee ${fee}`);
  assert.equal(exchangeAmount(withFee('1'), payment({ asset: 'BTC', network: 'BITCOIN' })), undefined, 'an asset the view does not offer');
  assert.deepEqual([50, 100, 125, 5, 0].map(percentOfBps), ['0.5', '1', '1.25', '0.05', '0']);
});
