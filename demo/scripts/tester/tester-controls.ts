// The tester panel's rules, without DOM (test/demo/tester-controls.test.ts): what each control sends for the payment
// the checkout shows now, and which earlier quote of the link is still there to pay late. The panel follows the
// element's payment (its events, or the checkout API), so it never needs an address typed or read from a QR.
import type { AssetCode, Network, Payment } from '../../../src/contract/index.js';
import { amountToSend } from '../../../src/checkout/pay-checkout/state.js';
import { shareOf } from '../wallet/payment-qr.js';

/** The ways to pay the current payment, the share of what is due each sends, and the status each leads to. */
export const PAY_CONTROLS = [
  { id: 'exact', label: 'Pay exactly', percent: 100, leadsTo: 'confirming at once, then paid once mined: the checkout goes on to the success page' },
  { id: 'partial', label: 'Pay partly (50%)', percent: 50, leadsTo: 'partly paid: still awaiting payment, then underpaid once mined; the checkout asks for the rest' },
  { id: 'overpay', label: 'Pay over (110%)', percent: 110, leadsTo: 'paid and overpaid once mined: the excess is held for the merchant' },
] as const;

export type PayControl = (typeof PAY_CONTROLS)[number];

/** A transfer from the test wallet (POST /sandbox/wallet/transfers). */
export interface Transfer {
  to: string;
  asset: AssetCode;
  network: Network;
  amount: string;
}

/** An address the link's customer has moved on from, and what was due there. */
export interface Earlier {
  payment_id: string;
  address: string;
  asset: AssetCode;
  network: Network;
  amount: string;
}

/** Which payment the panel follows: any news of the one it has, or a newer payment of the link. */
export function follow(current: Payment | null, incoming: Payment): Payment {
  if (!current || current.payment_id === incoming.payment_id) return incoming;
  return Date.parse(incoming.created_at) >= Date.parse(current.created_at) ? incoming : current;
}

/**
 * The earlier quote once the checkout has moved from `previous` to `next` (a new quote, or another coin): the address
 * of the payment left behind, with its whole amount. The one known before stays when nothing moved on.
 */
export function earlierOf(previous: Payment | null, next: Payment, known: Earlier | undefined): Earlier | undefined {
  if (!previous || previous.payment_id === next.payment_id || previous.address === next.address) return known;
  if (Date.parse(next.created_at) < Date.parse(previous.created_at)) return known;
  return { payment_id: previous.payment_id, address: previous.address, asset: previous.asset, network: previous.network, amount: previous.amount_crypto };
}

/** What `control` sends to the payment: its share of what is still due (the rest, once part has come). */
export function transferFor(payment: Payment, control: PayControl, decimals: number): Transfer {
  return { to: payment.address, asset: payment.asset, network: payment.network, amount: shareOf(amountToSend(payment), decimals, control.percent) };
}
