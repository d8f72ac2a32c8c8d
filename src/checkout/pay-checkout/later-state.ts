// The pure figures of the later chunk's views (views/later.ts: confirming, paid, the receipt), apart from state.ts so
// that they travel with those views: the script carries only what its own views use (test/build/bundle.test.ts).
// No DOM; node:test in test/checkout-state/state.test.ts.
import type { Payment } from '../../contract/checkout.js';
import { atomic, type NamedAsset } from './state.js';

/** The fewest confirmations any of the payment's transactions has (0 before the first). */
export function confirmationsSeen(payment: Payment): number {
  return payment.transactions.length ? Math.min(...payment.transactions.map((t) => t.confirmations)) : 0;
}

/** How much more than due arrived (`received_crypto` − `amount_crypto`), in decimal arithmetic; '0' when none. */
export function excess(payment: Pick<Payment, 'received_crypto' | 'amount_crypto'>): string {
  const places = Math.max(...[payment.received_crypto, payment.amount_crypto].map((a) => a.split('.')[1]?.length ?? 0));
  const difference = atomic(payment.received_crypto, places) - atomic(payment.amount_crypto, places);
  if (difference <= 0n) return '0';
  const digits = difference.toString().padStart(places + 1, '0');
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${digits.slice(0, digits.length - places)}${fraction ? `.${fraction}` : ''}`;
}

/** The asset as a wallet names it: `USDT · TRC-20`, `ETH`, `BTC`. The same in every language. */
export function assetName({ asset, token_standard }: NamedAsset): string {
  return token_standard ? `${asset} · ${token_standard}` : asset;
}
