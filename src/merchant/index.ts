// pay-checkout/merchant: what a merchant's server imports. fetch and WebCrypto only: Node 20+, Deno, Bun, edge workers.
export { MerchantClient, type EventQuery, type EventsApi, type MerchantClientOptions, type PaymentLinkQuery, type ReadOptions, type RequestOptions } from './client.js';
export { PayCheckoutApiError, PayCheckoutConnectionError, PayCheckoutError, PayCheckoutResponseError, PayCheckoutTimeoutError } from './errors.js';
export { signPaymentLinkBody, signedText, verifyPaymentLinkSignature } from './signature.js';
export type * from '../contract/index.js';
export { signRedirect, verifyRedirect, type RedirectParams } from './redirect.js';
export { verifyWebhook, WebhookVerificationError, WEBHOOK_SIGNATURE_HEADER, type VerifyWebhookOptions } from './webhook.js';
