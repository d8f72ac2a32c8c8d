// What a merchant's server reads: a payment link as it stands (GET /api/paymentLink/{ref}), and the
// webhook events that announce its changes. Beyond the integration document: docs/api.md, "Merchant-side truth".
import * as z from 'zod/mini';
import { Customer, LINK_STATUSES, Payment } from './checkout.js';
import { assetCode, expected, networkId, object, text } from './fields.js';
import { RefundRecord } from './refund.js';
import { DECIMAL } from './rules.js';

const decimal = z.string().check(z.regex(DECIMAL, 'must be a decimal string'));

/**
 * Where a quote's rate came from (docs/rates.md): the market rate (the product of its legs' rates) and the spread
 * taken from it give the payment's `rate`; each leg (ETH/USD, USD/VND; or ETH/VND alone) is the median of the prices
 * used, and lists every source's price with the source's time, used or left out and why.
 */
export const RateProvenance = z.object({
  /** VND per unit before the spread, rounded down to 6 decimal places. */
  market_rate: decimal,
  spread_bps: z.int(),
  /** When the quote was made: each price's freshness is counted to here. */
  made_at: z.string(),
  legs: z.array(
    z.object({
      pair: z.string(),
      /** The median of the prices used. */
      rate: decimal,
      /** How many fresh prices within the bound the leg needed. */
      quorum: z.int(),
      /** How far from the median of the fresh prices one may be, in basis points, and still be used. */
      max_deviation_bps: z.int(),
      sources: z.array(
        z.object({
          source: z.string(),
          value: decimal,
          /** The source's own time for the price (when it answered, where its format has none). */
          at: z.string(),
          used: z.boolean(),
          /** Why a price was not used: older than its source's bound, or too far from the median. */
          left_out: z.nullable(z.enum(['stale', 'outlier'])),
        }),
      ),
    }),
  ),
});
export type RateProvenance = z.infer<typeof RateProvenance>;

/** A payment as its merchant reads it: the customer's view, where its refunds go, and where its rate came from. */
export const MerchantPayment = z.extend(Payment, {
  /** Where a refund of this payment goes: the address that sent its first confirmed money; null before any. */
  refund_address: z.nullable(z.string()),
  /** Where the quote's rate came from; null for a payment quoted before the gateway recorded it. */
  rate_provenance: z.nullable(RateProvenance),
});
export type MerchantPayment = z.infer<typeof MerchantPayment>;

/** A refund as the link resource lists it: the refund list's record, and the payment whose money it returned. */
export const LinkRefund = z.extend(RefundRecord, { payment_id: z.nullable(z.string()) });
export type LinkRefund = z.infer<typeof LinkRefund>;

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
  /**
   * When the merchant cancelled this link (POST /api/paymentLink/{ref}/cancel; status `cancelled`); null otherwise.
   * Always sent; optional only because a gateway older than cancels, still serving in a rolling upgrade, leaves it out.
   */
  cancelled_at: z.optional(z.nullable(z.string())),
  /** Who pays: the contact the customer gave at checkout (the latest payment's), else the link's billing details. */
  customer: z.nullable(Customer),
  /** Every payment opened on the link, oldest first, with its chain transactions. */
  payments: z.array(MerchantPayment),
  refunds: z.array(LinkRefund),
  /** What can still be refunded: the VND this link holds (paid and held), less refunds that did not fail. */
  amountToRefund: z.int(),
});
export type PaymentLinkResource = z.infer<typeof PaymentLinkResource>;

/** One page of links, newest first; `next_cursor` asks for the next page, null on the last. */
export const PaymentLinkList = z.object({
  payment_links: z.array(PaymentLinkResource),
  next_cursor: z.nullable(z.string()),
  /** How many links the filters find in all, with `include_total=true`. */
  total: z.optional(z.int()),
});
export type PaymentLinkList = z.infer<typeof PaymentLinkList>;

const INSTANT = /^(\d{4})-(\d\d)-(\d\d)(T\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:\d\d))?$/;

/** An RFC 3339 date-time with its offset, or a date (its midnight, UTC), that names a real day and time. */
export function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

const instant = z.string(expected('a date-time')).check(
  z.refine(isInstant, 'must be a date-time with its offset, such as 2026-11-22T00:00:00+07:00, or a date such as 2026-11-22'),
);

/**
 * GET /api/paymentLink: the merchant's links, newest first, a page at a time (`limit` 1 to 200, default 50; then
 * `cursor` = the last page's `next_cursor`). Filters narrow it and combine: an order (`merchant_order_id`, exact), a
 * search (`q`: part of an order id, a payment_link_ref, or part of the customer's e-mail, case-insensitive), the link
 * `status`, links with a payment in an `asset` (and `network`), created in [`created_from`, `created_before`), and
 * `held=true` for links holding money not yet returned (a payment's `held_vnd` beyond what was refunded from it).
 */
export const REFUNDED_STATES = ['none', 'partly', 'fully'] as const;
export type RefundedState = (typeof REFUNDED_STATES)[number];

export const LINK_SORTS = ['-created_at', 'created_at', '-amount', 'amount'] as const;
export type LinkSort = (typeof LINK_SORTS)[number];

export const PaymentLinkListQuery = z.object({
  merchant_order_id: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  q: z.optional(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters'))),
  status: z.optional(z.enum(LINK_STATUSES, expected(`one of ${LINK_STATUSES.join(', ')}`))),
  asset: z.optional(assetCode),
  network: z.optional(networkId),
  created_from: z.optional(instant),
  created_before: z.optional(instant),
  held: z.optional(z.enum(['true', 'false'], expected('true or false'))),
  /** How much of a link's money went back: `none` (no refund that did not fail), `partly`, `fully` (paid links only). */
  refunded: z.optional(z.enum(REFUNDED_STATES, expected(`one of ${REFUNDED_STATES.join(', ')}`))),
  /** The order of the list: newest first (`-created_at`, the default), oldest first, or by amount, `-` for largest first. */
  sort: z._default(z.enum(LINK_SORTS, expected(`one of ${LINK_SORTS.join(', ')}`)), '-created_at'),
  /** `true`: the answer says how many links the filters find in all (a count more per page, so asked for). */
  include_total: z.optional(z.enum(['true', 'false'], expected('true or false'))),
  limit: z._default(
    z.coerce.number(expected('a whole number')).check(z.int('must be a whole number'), z.gte(1, 'must be at least 1'), z.lte(200, 'must be at most 200')),
    50,
  ),
  /** Opaque: the `next_cursor` of the page before. */
  cursor: z.optional(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters'))),
});

export const WEBHOOK_EVENT_TYPES = [
  'payment.confirming',
  'payment.paid',
  'payment.underpaid',
  'payment.expired',
  'payment.paid_late',
  'payment.reorged',
  'payment_link.expired',
  'payment_link.cancelled',
  'refund.pending',
  'refund.succeeded',
  'refund.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The event "Send a test event" sends to one endpoint (as GitHub's `ping`, Stripe's and BTCPay's test webhooks): the
 * same envelope, signing and delivery as the others, about no payment link (`data.payment_link` is null).
 */
export const WEBHOOK_TEST_EVENT = 'test.ping';
/** What a delivery can be of: an event about a link, or the test event. */
export const WEBHOOK_DELIVERY_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type WebhookDeliveryType = (typeof WEBHOOK_DELIVERY_TYPES)[number];

/**
 * A transfer into the address of the event's payment, as the chain showed it when the event was written: which
 * transaction and where in it, which block, and how many confirmations. The merchant can check each against its own
 * node or an explorer. A payment.reorged event names the transfers as they stood before the reorganisation took them
 * back: the same facts as the payment.paid event it reverses.
 */
export const EventTransfer = z.object({
  network: z.string(),
  asset: z.string(),
  tx_hash: z.string(),
  /** The token's Transfer log in the transaction's receipt; null for the network's own coin (the transaction's value). */
  log_index: z.nullable(z.int()),
  /** Null while the transaction waits for a block. */
  block_height: z.nullable(z.int()),
  block_hash: z.nullable(z.string()),
  /** The token's contract, where a token moved; null for the network's own coin. */
  token_contract: z.nullable(z.string()),
  amount_crypto: decimal,
  confirmations: z.int(),
});
export type EventTransfer = z.infer<typeof EventTransfer>;

/** The body of a webhook: `id` is stable across retries, for de-duplication. */
export const WebhookEvent = z.object({
  id: z.string(),
  /**
   * The event's place among the merchant's events (GET /api/events): 1, 2, 3, … with no gap, in the order they were
   * made. Absent only from deliveries queued before the events API existed.
   */
  sequence: z.optional(z.int().check(z.positive())),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  created_at: z.string(),
  /** The payment or refund the event is about, when it is about one. */
  payment_id: z.nullable(z.string()),
  refund_id: z.nullable(z.string()),
  data: z.object({
    payment_link: PaymentLinkResource,
    /**
     * On an event about a payment (`payment_id` set): the chain facts of the money it is about, oldest first (empty
     * when none came). Absent from other events, and from those written before the gateway named them.
     */
    transfers: z.optional(z.array(EventTransfer)),
  }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** An event of GET /api/events: the body of its webhook, with its `sequence`. */
export const MerchantEventResource = z.object({ ...WebhookEvent.shape, sequence: z.int().check(z.positive()) });
export type MerchantEventResource = z.infer<typeof MerchantEventResource>;

const EVENT_LIMIT_MAX = 100;
/** GET /api/events: after which event (its id), how many (1 to 100, default 10), of which type. */
export const MerchantEventQuery = z.object({
  after: z.optional(z.string().check(z.regex(/^evt_[A-Za-z0-9_-]{1,64}$/, 'must be the id of one of your events (evt_…)'))),
  limit: z.optional(z.string().check(z.regex(/^(?:[1-9][0-9]?|100)$/, `must be a whole number from 1 to ${EVENT_LIMIT_MAX}, in digits`))),
  type: z.optional(z.enum(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
});
export type MerchantEventQuery = z.infer<typeof MerchantEventQuery>;

/**
 * A page of events, oldest first (as Stripe's GET /v1/events, but ascending: a catch-up reads forwards). `next_after`
 * is what to send as `after` for the next page (the last event's id; with `has_more` false, the place to wait from).
 * `retention_days` and `available_from`: events are kept that long, so the list goes back to then and no further.
 */
export const MerchantEventList = z.object({
  data: z.array(MerchantEventResource),
  has_more: z.boolean(),
  next_after: z.nullable(z.string()),
  retention_days: z.int(),
  available_from: z.string(),
});
export type MerchantEventList = z.infer<typeof MerchantEventList>;

/** The body of a test event: the envelope of the others, about no payment, refund or link. */
export const WebhookTestEvent = z.object({
  id: z.string(),
  type: z.literal(WEBHOOK_TEST_EVENT),
  created_at: z.string(),
  payment_id: z.null(),
  refund_id: z.null(),
  /** The endpoint it was sent to. */
  data: z.object({ payment_link: z.null(), endpoint_id: z.string() }),
});
export type WebhookTestEvent = z.infer<typeof WebhookTestEvent>;

/**
 * The rules a webhook URL keeps, checked when it is added and again at each delivery: `https` (https:, http: only for
 * the sandbox's own receivers), `no_credentials` (no user name or password in it), `public_address` (its host reaches
 * only public addresses).
 */
export const WEBHOOK_URL_RULES = ['https', 'no_credentials', 'public_address'] as const;
export type WebhookUrlRule = (typeof WEBHOOK_URL_RULES)[number];

/**
 * An endpoint a delivery found refused by a URL rule (one added before the rule, or whose host now resolves to a
 * private address): nothing is sent to it, each delivery's last_error is `refused_address`, until an attempt finds its
 * URL allowed again. `reason` is what the rule says of this URL, as the `url` field's error of an add would.
 */
export const WebhookEndpointRefusal = z.object({
  rule: z.enum(WEBHOOK_URL_RULES),
  reason: z.string(),
  /** The first attempt that found it so (again, after one found it allowed). */
  since: z.string(),
});
export type WebhookEndpointRefusal = z.infer<typeof WebhookEndpointRefusal>;

export const WebhookEndpoint = z.object({
  endpoint_id: z.string(),
  url: z.string(),
  /** Signs every delivery: `Pay-Checkout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
  secret: z.string(),
  created_at: z.string(),
  /**
   * Why deliveries to it are refused; null when none is. Always sent; optional only because a gateway older than it,
   * still serving in a rolling upgrade, leaves it out.
   */
  refused: z.optional(z.nullable(WebhookEndpointRefusal)),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** POST /api/webhooks/endpoints. The URL rules (public https:) are the webhooks service's. */
export const WebhookEndpointRequest = object({ url: text(2048, 1) });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = z.object({
  delivery_id: z.int(),
  event_id: z.string(),
  type: z.enum(WEBHOOK_DELIVERY_TYPES),
  /** The payment link the event is about; null for a test event. */
  payment_link_ref: z.nullable(z.string()),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.int(),
  last_status_code: z.nullable(z.int()),
  last_error: z.nullable(z.string()),
  next_attempt_at: z.nullable(z.string()),
  delivered_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** How much of a receiver's answer is kept, as text: Stripe's dashboard keeps a few KiB too. */
export const WEBHOOK_RESPONSE_BODY_BYTES = 4096;

/** Why an attempt got no answer: nothing the gateway's own network said beyond these words. */
export const WEBHOOK_ATTEMPT_ERRORS = ['timeout', 'unresolved', 'refused_address', 'connection_failed', 'tls'] as const;

/** One POST of a delivery to its endpoint. */
export const WebhookAttempt = z.object({
  attempted_at: z.string(),
  /** From the request's start to the answer's last byte kept (or to the failure). */
  duration_ms: z.int(),
  /** The receiver's HTTP status; null when it did not answer. */
  status_code: z.nullable(z.int()),
  /** The first WEBHOOK_RESPONSE_BODY_BYTES bytes of the answer, as UTF-8 text; null when there was none. */
  response_body: z.nullable(z.string()),
  /** The answer was longer than what is kept. */
  response_truncated: z.boolean(),
  /** Why there was no answer. */
  error: z.nullable(z.enum(WEBHOOK_ATTEMPT_ERRORS)),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** GET /api/webhooks/deliveries/{delivery_id}: a delivery, what it sends, and every attempt, oldest first. */
export const WebhookDeliveryDetail = z.object({
  ...WebhookDelivery.shape,
  endpoint_id: z.string(),
  /** The body POSTed, exactly as signed (a WebhookEvent or WebhookTestEvent as JSON text). */
  payload: z.string(),
  attempt_log: z.array(WebhookAttempt),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/** GET /api/webhooks/endpoints/{endpoint_id}/deliveries: the latest 200, or those of one payment link. */
export const WebhookDeliveryQuery = z.object({
  payment_link_ref: z.optional(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters'))),
});
