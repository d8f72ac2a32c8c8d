// Refunds (docs/api.md, "Create a refund", "Get the refunds of an order").
import * as z from 'zod/mini';
import { expected, object, text, vndAmount } from './fields.js';

export const REFUND_TYPES = ['partial', 'full'] as const;
export const REFUND_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

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
});
export type RefundRecord = z.infer<typeof RefundRecord>;

/** The refund list: `amountToRefund` is what is still refundable after the refunds listed: every VND the order holds, once. */
export const RefundList = object({
  amountToRefund: z.number(),
  refundDetails: z.array(RefundRecord),
});
export type RefundList = z.infer<typeof RefundList>;
