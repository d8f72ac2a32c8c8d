// What a merchant's server reads: a payment link as it stands (GET /api/paymentLink/{ref}), and the
// webhook events that announce its changes. Not in the seed; see docs/api.md, "Merchant-side truth".
import * as z from 'zod/mini';
import { LINK_STATUSES, Payment } from './checkout.js';
import { expected, object, text } from './fields.js';
import { RefundRecord } from './refund.js';

export const PaymentLinkResource = z.object({
  payment_link_ref: z.string(),
  payment_link: z.string(),
  merchant_order_id: z.string(),
  status: z.enum(LINK_STATUSES),
  amount: z.int(),
  currency: z.literal('VND'),
  description: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  paid_at: z.nullable(z.string()),
  /** When a newer link for the same order replaced this expired one; null otherwise. */
  superseded_at: z.nullable(z.string()),
  /** Every payment opened on the link, oldest first, with its chain transactions. */
  payments: z.array(Payment),
  refunds: z.array(RefundRecord),
  /** What can still be refunded: the VND this link holds (paid and held), less refunds that did not fail. */
  amountToRefund: z.int(),
});
export type PaymentLinkResource = z.infer<typeof PaymentLinkResource>;

export const PaymentLinkList = z.object({ payment_links: z.array(PaymentLinkResource) });
export type PaymentLinkList = z.infer<typeof PaymentLinkList>;

/** GET /api/paymentLink: an order's links (`merchant_order_id`), else the latest `limit` (1 to 200, default 50). */
export const PaymentLinkListQuery = z.object({
  merchant_order_id: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  limit: z._default(
    z.coerce.number(expected('a whole number')).check(z.int('must be a whole number'), z.gte(1, 'must be at least 1'), z.lte(200, 'must be at most 200')),
    50,
  ),
});

export const WEBHOOK_EVENT_TYPES = [
  'payment.confirming',
  'payment.paid',
  'payment.underpaid',
  'payment.expired',
  'payment.paid_late',
  'payment_link.expired',
  'refund.succeeded',
  'refund.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body of a webhook: `id` is stable across retries, for de-duplication. */
export const WebhookEvent = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  created_at: z.string(),
  /** The payment or refund the event is about, when it is about one. */
  payment_id: z.nullable(z.string()),
  refund_id: z.nullable(z.string()),
  data: z.object({ payment_link: PaymentLinkResource }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const WebhookEndpoint = z.object({
  endpoint_id: z.string(),
  url: z.string(),
  /** Signs every delivery: `Pay-Checkout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
  secret: z.string(),
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** POST /api/webhooks/endpoints. The URL rules (public https:) are the webhooks service's. */
export const WebhookEndpointRequest = object({ url: text(2048, 1) });

export const WebhookDelivery = z.object({
  delivery_id: z.int(),
  event_id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int(),
  last_status_code: z.nullable(z.int()),
  last_error: z.nullable(z.string()),
  next_attempt_at: z.nullable(z.string()),
  delivered_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
