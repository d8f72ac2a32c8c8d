// Refunds (docs/api.md, "Create a refund", "Get the refunds of an order").
import * as z from 'zod/mini';
import { expected, object, text, vndAmount } from './fields.js';

export const REFUND_TYPES = ['partial', 'full'] as const;
export const REFUND_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/**
 * Where a refund's coins go: `claim`, an address the customer gives on the claim page (the default: the address that
 * paid may be an exchange's); `payer`, the address that paid, when the merchant knows it is the customer's own wallet.
 */
export const REFUND_DESTINATIONS = ['claim', 'payer'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];
/** A refund's history, in order: asked for, claimed by the customer, sent on chain, confirmed, or failed (with why). */
export const REFUND_EVENTS = ['requested', 'claimed', 'sent', 'confirmed', 'failed'] as const;

/** Why a claimed refund's payout waits to be sent (RefundResource.payout_waiting). */
export const PAYOUT_WAITING_REASONS = ['daily_cap', 'wallet_funds'] as const;

/** POST /api/refund/createRefund/{order_id}'s body: the integration document shows all five fields, so all five are required. */
export const CreateRefundRequest = object({
  amount: vndAmount(1),
  channel: z.literal('PROVIDER', expected('PROVIDER (the channel of the original payment)')),
  description: text(500, 1),
  refund_type: z.enum(REFUND_TYPES, expected('partial or full')),
  refund_reason: text(500, 1),
  /**
   * Beyond the integration document: the payment whose money goes back (a held one, say). Without it the paid payment is refunded
   * first, then held ones, oldest first.
   */
  payment_id: z.optional(text(64, 1)),
  /** Beyond the integration document: where the coins go (REFUND_DESTINATIONS); `claim` when left out. */
  send_to: z.optional(z.enum(REFUND_DESTINATIONS, expected('claim or payer'))),
});
export type CreateRefundRequest = z.infer<typeof CreateRefundRequest>;

/** A refund as the refund list shows it. */
export const RefundRecord = object({
  refund_date: z.string(),
  refund_id: z.string(),
  psp_refund_id: z.string(),
  amount: z.number(),
  currency: z.string(),
  refund_status: z.enum(REFUND_STATUSES),
  refund_type: z.enum(REFUND_TYPES),
  refund_reason: z.string(),
  /**
   * Beyond the integration document: the page where the customer gives the address the refund goes to, absolute, on
   * the gateway's public origin; null for a refund sent to the address that paid.
   */
  claim_url: z.nullable(z.string()),
});
export type RefundRecord = z.infer<typeof RefundRecord>;

/** The refund list: `amountToRefund` is what is still refundable after the refunds listed: every VND the order holds, once. */
export const RefundList = object({
  amountToRefund: z.number(),
  refundDetails: z.array(RefundRecord),
});
export type RefundList = z.infer<typeof RefundList>;

/** One step of a refund's history. */
export const RefundHistoryEntry = z.object({
  event: z.enum(REFUND_EVENTS),
  at: z.string(),
  /** What the step carried: the address claimed, the transaction sent, the reason it failed. */
  detail: z.nullable(z.string()),
});
export type RefundHistoryEntry = z.infer<typeof RefundHistoryEntry>;

/**
 * A refund as the merchant sees it (GET /api/refunds/{refund_id}): the refund record, and what it sends and where.
 * The coins are the refund's share of its payment's coins (docs/payment-lifecycle.md, "Which coins a refund returns"):
 * `amount_crypto` = `payment_received_crypto` × (refunded so far + `amount`) / `payment_value_vnd`, rounded down, less
 * what the payment's earlier refunds send.
 */
export const RefundResource = z.extend(RefundRecord, {
  merchant_order_id: z.string(),
  payment_link_ref: z.string(),
  payment_id: z.string(),
  asset: z.string(),
  network: z.string(),
  /** The coins it sends, a decimal string. */
  amount_crypto: z.string(),
  /** The payment's confirmed coins and what they are worth to the order: the refund's rate. */
  payment_received_crypto: z.string(),
  payment_value_vnd: z.int(),
  send_to: z.enum(REFUND_DESTINATIONS),
  /** The address the coins go to; null while the customer has not claimed it. */
  destination: z.nullable(z.string()),
  claim_expires_at: z.nullable(z.string()),
  /** The note: the request's `description`. */
  description: z.string(),
  failure_reason: z.nullable(z.string()),
  /** The refund this one made again after it failed. */
  retry_of: z.nullable(z.string()),
  /**
   * Why its payout waits to be sent, while it does: `daily_cap` (the merchant's payouts of the last 24 h and this one
   * would pass the operator's daily cap; `until` is when the window allows it, null when no time will) or
   * `wallet_funds` (the merchant's payout wallet holds too little of the coin or its gas); `detail` in words. Null
   * otherwise: claimed payouts go out at once.
   */
  payout_waiting: z.nullable(z.object({ reason: z.enum(PAYOUT_WAITING_REASONS), detail: z.string(), until: z.nullable(z.string()) })),
  history: z.array(RefundHistoryEntry),
});
export type RefundResource = z.infer<typeof RefundResource>;

/** An order's refunds as the merchant sees them, oldest first, and what is left to refund. */
export const RefundResourceList = z.object({ amountToRefund: z.int(), refunds: z.array(RefundResource) });
export type RefundResourceList = z.infer<typeof RefundResourceList>;

/** POST /api/refunds/{refund_id}/cancel's body: why, in the merchant's words (optional). */
export const CancelRefundRequest = object({ reason: z.optional(text(500, 1)) });
export type CancelRefundRequest = z.infer<typeof CancelRefundRequest>;
