// pay-checkout/merchant: what a merchant's Node server imports.
export { MerchantClient, PayCheckoutError, type MerchantClientOptions, type RequestOptions } from './client.js';
export { signPaymentLinkBody, signedText, verifyPaymentLinkSignature } from './signature.js';
export type * from '../contract/index.js';
export { signRedirect, verifyRedirect, type RedirectParams } from './redirect.js';
export { verifyWebhook, WebhookVerificationError, WEBHOOK_SIGNATURE_HEADER, type VerifyWebhookOptions } from './webhook.js';
