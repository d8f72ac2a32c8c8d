// A payment link (docs/api.md, "Create a payment link"): the merchant API's request and its answer.
import * as z from 'zod/mini';
import { countryCode, expected, object, email, locale, orderId, phone, text, vndAmount, webUrl } from './fields.js';

export const Address = object({
  city: z.optional(text(100)),
  country_code: z.optional(countryCode),
  locale: z.optional(locale),
  line_1: z.optional(text(200)),
  line_2: z.optional(text(200)),
  postal_code: z.optional(text(20)),
  state: z.optional(text(100)),
});
export type Address = z.infer<typeof Address>;

export const BillingDetails = object({
  billing_name: z.optional(text(200)),
  billing_email: z.optional(email),
  billing_phone: z.optional(phone),
  billing_address: z.optional(Address),
});
export type BillingDetails = z.infer<typeof BillingDetails>;

export const ShippingDetails = object({
  shipping_name: z.optional(text(200)),
  shipping_email: z.optional(email),
  shipping_phone: z.optional(phone),
  shipping_address: z.optional(Address),
});
export type ShippingDetails = z.infer<typeof ShippingDetails>;

export const MerchantDetails = object({
  name: z.optional(text(100)),
  logo: z.optional(webUrl),
  back_url: z.optional(webUrl),
  promo_code: z.optional(text(64)),
  promo_discount: z.optional(vndAmount(0)),
  shipping_charges: z.optional(vndAmount(0)),
});
export type MerchantDetails = z.infer<typeof MerchantDetails>;

export const OrderLine = object({
  id: text(64, 1),
  price: vndAmount(0),
  name: text(200, 1),
  quantity: z.int(expected('a whole number')).check(z.gte(1, 'must be at least 1'), z.lte(10_000, 'must be at most 10000')),
  image: z.optional(webUrl),
});
export type OrderLine = z.infer<typeof OrderLine>;

export const LINK_SOURCES = ['default', 'api', 'checkout'] as const;

/** POST /api/paymentLink's body. `signature_hash` is checked by the signature step (401), not by this schema. */
export const PaymentLinkRequest = object({
  svc_key: text(200, 1),
  merchant_order_id: orderId,
  amount: vndAmount(1),
  currency: z.string(expected('a currency code')).check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')),
  country_code: z.optional(countryCode),
  billing_details: z.optional(BillingDetails),
  shipping_details: z.optional(ShippingDetails),
  merchant_details: z.optional(MerchantDetails),
  order_details: z.array(OrderLine, expected('a list of order lines')).check(
    z.minLength(1, 'must list at least one order line'),
    z.maxLength(100, 'must list at most 100 order lines'),
  ),
  success_url: webUrl,
  failure_url: webUrl,
  signature_hash: z.optional(z.unknown()),
  expiry_hours: z.int(expected('a whole number of hours')).check(
    z.gte(1, 'must be at least 1 hour'),
    z.lte(720, 'must be at most 720 hours (30 days)'),
  ),
  source: z.enum(LINK_SOURCES, expected(`one of ${LINK_SOURCES.join(', ')}`)),
  description: text(500, 1),
  show_shipping_details: z.optional(z.boolean(expected('true or false'))),
  show_back_button: z.optional(z.boolean(expected('true or false'))),
  default_guest_checkout: z.optional(z.boolean(expected('true or false'))),
  is_checkout_embed: z.optional(z.boolean(expected('true or false'))),
  /**
   * Sandbox only, for testers: how long each quote of this link holds its rate, in place of the gateway's
   * SANDBOX_QUOTE_TTL_SECONDS (docs/api.md, "Create a payment link"). A live gateway would refuse it.
   */
  sandbox_quote_ttl_seconds: z.optional(
    z.int(expected('a whole number of seconds')).check(z.gte(5, 'must be at least 5 seconds'), z.lte(86_400, 'must be at most 86400 seconds (a day)')),
  ),
});
export type PaymentLinkRequest = z.infer<typeof PaymentLinkRequest>;
/** What a merchant passes to the SDK: the request before `svc_key` and `signature_hash` are added. */
export type PaymentLinkInput = Omit<PaymentLinkRequest, 'svc_key' | 'signature_hash' | 'source'> & {
  source?: PaymentLinkRequest['source'];
};

/** POST /api/paymentLink's answer. */
export const PaymentLinkResponse = object({
  payment_link_ref: z.string(),
  payment_link: z.string(),
});
export type PaymentLinkResponse = z.infer<typeof PaymentLinkResponse>;

/** Sum of the order as the gateway checks it against `amount`. */
export function orderTotal(link: Pick<PaymentLinkRequest, 'order_details' | 'merchant_details'>): number {
  const subtotal = link.order_details.reduce((sum, line) => sum + line.price * line.quantity, 0);
  return subtotal - (link.merchant_details?.promo_discount ?? 0) + (link.merchant_details?.shipping_charges ?? 0);
}
