// Every route the gateway serves, as the OpenAPI document (GET /openapi.json) describes it: one line each, with
// the contract's schemas for what goes in and comes out. Path parameters come from the `{name}` parts of the path;
// JSON bodies add 400, 413 and 415, Bearer routes 401, and every route a problem+json `default`.
// test/gateway/openapi.test.ts checks that each route the gateway mounts is here, and docs/api.md against it.
import * as z from 'zod/mini';
import {
  CheckoutView,
  CreateRefundRequest,
  MineRequest,
  MineResponse,
  OpenPaymentRequest,
  Payment,
  PaymentLinkList,
  PaymentLinkListQuery,
  PaymentLinkRequest,
  PaymentLinkResource,
  PaymentLinkResponse,
  RefundList,
  TokenRequest,
  TokenResponse,
  WalletState,
  WalletTransferRequest,
  WalletTransferResponse,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointRequest,
} from '../../contract/index.js';

export type Method = 'get' | 'post' | 'delete';
export type Tag = 'Merchant' | 'Webhooks' | 'Checkout' | 'Sandbox' | 'Assets';

/** What an answer carries: a contract schema (JSON), or another media type described in words. */
export type Body = z.ZodMiniType | { type: string; description: string };

export interface RouteSpec {
  tag: Tag;
  summary: string;
  description?: string;
  /** `bearer`: an access token; `signature`: svc_key and signature_hash in the body; `client`: the token endpoint's client credentials. */
  auth?: 'bearer' | 'signature' | 'client';
  /** A JSON body, or a form (`{ form }`). */
  body?: z.ZodMiniType | { form: z.ZodMiniType };
  /** The query string, as an object schema. */
  query?: z.ZodMiniType;
  /** Path parameters that are not plain strings. */
  params?: Record<string, z.ZodMiniType>;
  /** Takes an `Idempotency-Key` (the same key and body answer the first answer again). */
  idempotent?: boolean;
  /** Honours `Last-Event-ID` (an event stream). */
  lastEventId?: boolean;
  /** Successful answers by status; `null` for an answer without a body. */
  ok: Record<number, Body | null>;
  /** Error statuses this route answers with problem+json, besides the ones its kind implies. */
  errors?: number[];
}

export type Route = [Method, string, RouteSpec];

const script = (type: string, description: string) => ({ type, description });

export const ROUTES: Route[] = [
  // The merchant API (docs/api.md).
  ['post', '/api/v2/oauth/token', { tag: 'Merchant', summary: 'Issue an access token (client credentials)', auth: 'client', body: { form: TokenRequest }, ok: { 200: TokenResponse } }],
  ['post', '/api/paymentLink', { tag: 'Merchant', summary: 'Create a payment link', auth: 'signature', body: PaymentLinkRequest, idempotent: true, ok: { 201: PaymentLinkResponse }, errors: [401, 409, 422] }],
  ['get', '/api/paymentLink', { tag: 'Merchant', summary: 'Your payment links, newest first, a page at a time: search, filters, cursor', auth: 'bearer', query: PaymentLinkListQuery, ok: { 200: PaymentLinkList }, errors: [422] }],
  ['get', '/api/paymentLink/{payment_link_ref}', { tag: 'Merchant', summary: 'A payment link as it stands', auth: 'bearer', ok: { 200: PaymentLinkResource }, errors: [404] }],
  ['post', '/api/refund/createRefund/{order_id}', { tag: 'Merchant', summary: 'Refund part or all of an order', auth: 'bearer', body: CreateRefundRequest, idempotent: true, ok: { 201: RefundList }, errors: [404, 409, 422] }],
  ['get', '/api/refund/getDataByTransaction/{order_id}', { tag: 'Merchant', summary: 'The refunds of an order', auth: 'bearer', ok: { 200: RefundList }, errors: [404] }],
  ['post', '/api/payments/{payment_id}/accept', { tag: 'Merchant', summary: 'Accept a payment held for you (paid_late) while its link is not paid', auth: 'bearer', ok: { 200: PaymentLinkResource }, errors: [404, 409] }],
  // Webhook endpoints and their delivery logs.
  ['get', '/api/webhooks/endpoints', { tag: 'Webhooks', summary: 'Your webhook endpoints', auth: 'bearer', ok: { 200: WebhookEndpointList } }],
  ['post', '/api/webhooks/endpoints', { tag: 'Webhooks', summary: 'Add a webhook endpoint (keep its secret)', auth: 'bearer', body: WebhookEndpointRequest, ok: { 201: WebhookEndpoint }, errors: [422] }],
  ['delete', '/api/webhooks/endpoints/{endpoint_id}', { tag: 'Webhooks', summary: 'Remove a webhook endpoint', auth: 'bearer', ok: { 204: null }, errors: [404] }],
  ['get', '/api/webhooks/endpoints/{endpoint_id}/deliveries', { tag: 'Webhooks', summary: "An endpoint's delivery log (of one payment link with ?payment_link_ref)", auth: 'bearer', query: WebhookDeliveryQuery, ok: { 200: WebhookDeliveryList }, errors: [404, 422] }],
  ['post', '/api/webhooks/deliveries/{delivery_id}/redeliver', { tag: 'Webhooks', summary: 'Send a delivery again', auth: 'bearer', params: { delivery_id: z.int() }, ok: { 200: WebhookDelivery }, errors: [400, 404] }],
  // The checkout API: public, CORS open; the ref is the bearer secret.
  ['get', '/api/checkout/{ref}', { tag: 'Checkout', summary: "The customer's view of a payment link", ok: { 200: CheckoutView }, errors: [404] }],
  ['post', '/api/checkout/{ref}/payments', { tag: 'Checkout', summary: 'Open a payment (or return the one still open in that asset)', body: OpenPaymentRequest, ok: { 201: Payment, 200: Payment }, errors: [404, 409, 410, 422] }],
  ['get', '/api/checkout/{ref}/payments/{payment_id}', { tag: 'Checkout', summary: 'A payment', ok: { 200: Payment }, errors: [404] }],
  ['get', '/api/checkout/{ref}/events', { tag: 'Checkout', summary: "The link's payments as Server-Sent Events", lastEventId: true, ok: { 200: script('text/event-stream', '`event: payment`, `id: <event id>`, `data: <the Payment as JSON>` on every change; `retry: 2000` first, a comment every 15 s.') }, errors: [400, 404] }],
  // Sandbox only: the test wallet, the simulated chain and shortcuts through time.
  ['get', '/sandbox/wallet', { tag: 'Sandbox', summary: "The test wallet's addresses and balances", ok: { 200: WalletState } }],
  ['post', '/sandbox/wallet/faucet', { tag: 'Sandbox', summary: 'Top the test wallet up', ok: { 200: WalletState } }],
  ['post', '/sandbox/wallet/transfers', { tag: 'Sandbox', summary: 'The test wallet sends', body: WalletTransferRequest, ok: { 201: WalletTransferResponse }, errors: [422] }],
  ['get', '/sandbox/chain', { tag: 'Sandbox', summary: 'The tip of every simulated network', ok: { 200: MineResponse } }],
  ['post', '/sandbox/chain/mine', { tag: 'Sandbox', summary: 'Mine blocks now', body: MineRequest, ok: { 200: MineResponse }, errors: [422] }],
  ['post', '/sandbox/payments/{payment_id}/expire-quote', { tag: 'Sandbox', summary: "End a payment's quote now", ok: { 200: Payment }, errors: [404] }],
  ['post', '/sandbox/addresses/{address}/expire-quote', { tag: 'Sandbox', summary: 'End the quote of the latest payment to an address now (what the wallet knows from a QR)', ok: { 200: Payment }, errors: [404] }],
  ['post', '/sandbox/payment-links/{ref}/expire', { tag: 'Sandbox', summary: 'Let a payment link run out now', ok: { 200: CheckoutView }, errors: [404] }],
  // What browsers load.
  ['get', '/pay-checkout.js', { tag: 'Assets', summary: 'The <pay-checkout> element, one self-contained ES module', ok: { 200: script('text/javascript', 'dist/pay-checkout.js; gzip when accepted; an ETag; CORS open.'), 304: null }, errors: [503] }],
  ['get', '/pay-checkout.js.map', { tag: 'Assets', summary: "The element's source map", ok: { 200: script('application/json', 'dist/pay-checkout.js.map, sources inside; an ETag.'), 304: null }, errors: [503] }],
  ['get', '/checkout', { tag: 'Assets', summary: 'The hosted checkout page (`{checkout_url}`): `?ref=<payment_link_ref>`', query: z.object({ ref: z.optional(z.string()) }), ok: { 200: script('text/html', 'Served under a strict Content-Security-Policy; the link’s view inside, so the order shows without a request.') } }],
  ['get', '/openapi.json', { tag: 'Assets', summary: 'This document', ok: { 200: script('application/json', 'OpenAPI 3.1.') } }],
];
