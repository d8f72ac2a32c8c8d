// What an order's money is, as the portal shows it, from the read API's link resources alone: what each payment
// holds and has returned, what waits for the merchant's decision, and what a refund would send back on chain. The
// rules are the gateway's (docs/payment-lifecycle.md); the crypto of a refund is the same function the gateway
// sends with (src/codecs/amounts.ts, refundAtomic), so the form shows exactly what goes back.
import type { MerchantPayment, PaymentLinkResource, RefundDestination, RefundResource } from '../../../src/contract/index.js';
import { formatAtomic, leastRefundVnd, parseDecimal, refundAtomic } from '../../../src/codecs/amounts.js';
import { formatVnd } from '../lib/vnd.js';

/** One payment's money, as a refund sees it. */
export interface Holding {
  link: PaymentLinkResource;
  payment: MerchantPayment;
  /** VND its confirmed money is worth to the order: what it credits the link, plus what is held. */
  value: number;
  /** VND returned from it (refunds that did not fail). */
  refunded: number;
  /** VND that can still go back. */
  left: number;
  /** Held VND not yet returned: refunds of a payment count against its held part first. */
  held: number;
}

/** What each payment of the order's links holds, paid money first, then held, oldest first (as the gateway refunds). */
export function holdings(links: readonly PaymentLinkResource[]): Holding[] {
  const all = links.flatMap((link) =>
    link.payments.map((payment) => {
      const value = payment.held_vnd + payment.credited_vnd;
      // Credit that may still pay an open link is not returnable: only what is held, until the link is paid.
      const returnable = link.status === 'paid' ? value : payment.held_vnd;
      const refunded = link.refunds
        .filter((r) => r.payment_id === payment.payment_id && r.refund_status !== 'FAILED')
        .reduce((sum, r) => sum + r.amount, 0);
      return { link, payment, value, refunded, left: Math.max(0, returnable - refunded), held: Math.max(0, payment.held_vnd - refunded) };
    }),
  );
  const paidFirst = (h: Holding) => (h.payment.status === 'paid' ? 0 : h.payment.credited_vnd > 0 ? 1 : 2);
  return all
    .filter((h) => (h.link.status === 'paid' ? h.value : h.payment.held_vnd) > 0)
    .sort((a, b) => paidFirst(a) - paidFirst(b) || Date.parse(a.payment.created_at) - Date.parse(b.payment.created_at));
}

/**
 * Whether the merchant may accept this held payment (POST /api/payments/{payment_id}/accept): it arrived in full and
 * is confirmed (`paid_late`), nothing of it was refunded, and no link of the order is paid.
 */
export function canAccept(holding: Holding, links: readonly PaymentLinkResource[]): boolean {
  return holding.payment.status === 'paid_late' && holding.refunded === 0 && !links.some((l) => l.status === 'paid');
}

/** Why the money of a held payment is held, in a merchant's words. */
export function heldReason(holding: Holding): string {
  const { payment, link } = holding;
  if (payment.status === 'paid') return 'Overpaid: the excess is held for you.';
  if (payment.superseded_at) return 'Sent to the address of an older quote, after the customer had moved on to a newer one.';
  if (payment.credited_vnd > 0) return 'Arrived after its quote had run out: what came in time counts toward the order.';
  if (link.status === 'paid') return 'Arrived although another payment had paid the order.';
  if (payment.status === 'paid_late') return 'Arrived in full, after its quote had run out.';
  return 'Part of a payment whose quote ran out before the rest came.';
}

export interface RefundPreview {
  /** Decimal string in the asset's units. */
  crypto: string;
  asset: MerchantPayment['asset'];
  network: MerchantPayment['network'];
  /** Where it goes: the address that paid; null when the customer gives it on the claim page. */
  address: string | null;
  /** The refund's rate (docs/payment-lifecycle.md, "Which coins a refund returns"): the payment's confirmed coins… */
  received: string;
  /** …and what they are worth to the order, in VND. */
  value: number;
}

/**
 * What a refund of `amountVnd` from this payment sends back, counted in the asset's atomic units (`decimals`, as the
 * gateway lists the asset), to the payer or to the customer's claim; a message instead when the chain could not send
 * it, or the gateway did not list the asset. `refunds` (the order's, as the merchant sees them) say what the payment's
 * earlier refunds send, so the share is the gateway's to the unit.
 */
export function refundPreview(
  holding: Holding,
  amountVnd: number,
  decimals: number | undefined,
  sendTo: RefundDestination = 'claim',
  refunds?: readonly RefundResource[],
): RefundPreview | { problem: string } {
  const { payment } = holding;
  if (decimals === undefined) return { problem: `The gateway does not list ${payment.asset} on ${payment.network}: what goes back cannot be counted here.` };
  if (!Number.isInteger(amountVnd) || amountVnd < 1) return { problem: 'Type an amount of VND to see what goes back.' };
  if (amountVnd > holding.left) return { problem: `At most ${formatVnd(holding.left)} is left to refund from this payment.` };
  const confirmed = payment.transactions.filter((t) => t.confirmed_at).reduce((sum, t) => sum + parseDecimal(t.amount_crypto, decimals), 0n);
  const [value, refunded] = [BigInt(holding.value), BigInt(holding.refunded)];
  const sent = refunds
    ?.filter((r) => r.payment_id === payment.payment_id && r.refund_status !== 'FAILED')
    .reduce((sum, r) => sum + parseDecimal(r.amount_crypto, decimals), 0n);
  const share = refundAtomic(confirmed, value, refunded, BigInt(amountVnd), sent);
  const left = confirmed - (sent ?? 0n);
  const atomic = sent !== undefined && share > left ? left : share;
  if (atomic <= 0n) {
    return { problem: `Less than one unit of ${payment.asset} would go back: refund at least ${formatVnd(Number(leastRefundVnd(confirmed, value, refunded, sent)))}.` };
  }
  const address = sendTo === 'payer' ? payment.refund_address : null;
  return { crypto: formatAtomic(atomic, decimals), asset: payment.asset, network: payment.network, address, received: formatAtomic(confirmed, decimals), value: holding.value };
}

/** The payment a row of the list speaks for: the one that paid the link, else the latest. */
export function mainPayment(link: PaymentLinkResource): MerchantPayment | undefined {
  return link.payments.find((p) => p.status === 'paid') ?? link.payments.at(-1);
}

/** VND of a link gone back or going: its refunds that did not fail. */
export const refundedOf = (link: PaymentLinkResource): number =>
  link.refunds.filter((r) => r.refund_status !== 'FAILED').reduce((sum, r) => sum + r.amount, 0);

/**
 * What became of an order's link, as the merchant reads it: paid orders told apart by how much went back (the read
 * API's `refunded=`, storage/link-list.ts), `refunded` once nothing is left to refund.
 */
export function orderStatus(link: PaymentLinkResource): 'active' | 'paid' | 'partly_refunded' | 'refunded' | 'expired' | 'cancelled' {
  if (link.status !== 'paid' || refundedOf(link) === 0) return link.status;
  return link.amountToRefund > 0 ? 'partly_refunded' : 'refunded';
}

/** Held VND of a link not yet returned. */
export const heldOf = (link: PaymentLinkResource): number => holdings([link]).reduce((sum, h) => sum + h.held, 0);
