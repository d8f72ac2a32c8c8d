// Verifying a webhook on the merchant's server: the signature over the raw body and its timestamp, in constant
// time, within a tolerance window against replays (Stripe's scheme).
import type { WebhookEvent, WebhookTestEvent } from '../contract/index.js';
import { equalText, hex, hmacSha256 } from './crypto.js';

export const WEBHOOK_SIGNATURE_HEADER = 'pay-checkout-signature';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How old (or how far in the future) a delivery may be, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The time to judge by; now by default. */
  now?: Date;
}

/**
 * The event of a genuine delivery, else a WebhookVerificationError. Pass the body exactly as received
 * (a string or bytes, before any JSON parsing) and the `Pay-Checkout-Signature` header. A `test.ping` (the portal's
 * "Send a test event") is about no payment link: answer it 2xx and do nothing.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent | WebhookTestEvent> {
  if (!header) throw new WebhookVerificationError('the Pay-Checkout-Signature header is missing');
  const parts = header.split(',').map((part) => part.trim().split('=', 2) as [string, string]);
  const timestamp = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => (v ?? '').toLowerCase());
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) throw new WebhookVerificationError('the signature header is malformed');
  const age = Math.abs((options.now ?? new Date()).getTime() / 1000 - Number(timestamp));
  if (age > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('the delivery is outside the tolerance window (a replay?)');
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const expected = hex(await hmacSha256(secret, `${timestamp}.${body}`));
  if (!signatures.some((given) => equalText(given, expected))) throw new WebhookVerificationError('the signature does not match the body');
  return JSON.parse(body) as WebhookEvent | WebhookTestEvent;
}
