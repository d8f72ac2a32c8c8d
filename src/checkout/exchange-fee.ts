// What to type in an exchange's withdrawal form so that the amount due arrives: exchanges take their withdrawal fee
// out of the amount typed (about 1 USDT on TRC-20), so pasting the amount due delivers less than it, short by more
// than the 0.5% tolerance (docs/guide.md, "Paying from an exchange"). Pure, decimal strings in and out, bigint
// arithmetic, never a float; property-tested in test/checkout-state/exchange-fee.test.ts.
import { atomic } from './pay-checkout/state.js';

/** The most decimal places a fee or an amount may have (ETH's 18). */
export const MAX_PLACES = 18;

const DECIMAL = /^(\d{1,30})(?:\.(\d+))?$/;

function places(field: string, text: string): number {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`${field}: "${text}" is not a decimal number such as 1 or 0.8`);
  const count = match[2]?.length ?? 0;
  if (count > MAX_PLACES) throw new RangeError(`${field}: "${text}" has more than ${MAX_PLACES} decimal places`);
  return count;
}

/**
 * The amount to type so that `due` arrives once the exchange has taken `fee`: `due + fee`, rounded up to the quote's
 * step (10^-`decimals`, the smallest unit the checkout shows of the asset). What arrives, typed − fee, is then at
 * least `due` and less than `due` plus one step. `due` has at most `decimals` places (the gateway's quote); the fee
 * may have more (a BTC fee in satoshis below the quote's step is rounded up with the sum, never dropped).
 */
export function amountToType(due: string, fee: string, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_PLACES) throw new RangeError(`decimals: ${decimals} is not a whole number from 0 to ${MAX_PLACES}`);
  if (places('due', due) > decimals) throw new RangeError(`due: "${due}" has more than the quote's ${decimals} decimal places`);
  const scale = Math.max(decimals, places('fee', fee));
  const step = 10n ** BigInt(scale - decimals);
  const sum = atomic(due, scale) + atomic(fee, scale);
  const typed = (sum + step - 1n) / step;
  const unit = 10n ** BigInt(decimals);
  const fraction = (typed % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${typed / unit}${fraction ? `.${fraction}` : ''}`;
}
