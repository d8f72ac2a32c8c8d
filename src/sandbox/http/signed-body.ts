import type { MiddlewareHandler } from 'hono';
import { MERCHANT_DISABLED, PaymentLinkRequest } from '../../contract/index.js';
import type { Environment } from '../../contract/rules.js';
import { verifyPaymentLinkSignature } from '../../merchant/signature.js';
import { otherEnvironmentRefusal } from '../services/merchant/credentials.js';
import type { Merchant, Merchants } from '../services/merchant/merchants.js';
import { readJsonObject } from './body.js';
import { parseWith, unauthorized } from './problem.js';

export type SignedBodyEnv = { Variables: { merchant: Merchant; body: Record<string, unknown>; request: PaymentLinkRequest } };

/**
 * A payment link request signed by its merchant (docs/api.md#signing): `svc_key` names the merchant, `signature_hash`
 * is the HMAC of the rest of the body with its client secret; else 401. The body is read once, here, and its fields
 * are checked before the credentials, so a bad field is a 422 whoever sent it (docs/api.md, the order of checks). A
 * merchant key of the other environment is refused by its prefix, before it is looked up (services/merchant/credentials.ts).
 */
export function signedBody(merchants: Merchants, environment: Environment): MiddlewareHandler<SignedBodyEnv> {
  return async (c, next) => {
    const body = await readJsonObject(c);
    const request = parseWith(PaymentLinkRequest, body);
    const refusal = otherEnvironmentRefusal(request.svc_key, environment, 'svc_key');
    if (refusal) throw unauthorized(refusal);
    const merchant = await merchants.byMerchantKey(request.svc_key);
    if (!merchant) throw unauthorized('svc_key is not a known merchant key.');
    if (body.signature_hash === undefined) throw unauthorized('signature_hash is required: the base64 HMAC-SHA256 of the body (see docs/api.md#signing).');
    let signed = false;
    // The previous secret too while a roll's grace lasts, so a merchant's servers can change over one by one.
    for (const secret of merchants.signingSecrets(merchant)) signed ||= await verifyPaymentLinkSignature(body, secret);
    if (!signed) {
      throw unauthorized('signature_hash does not match the body: sign the JCS form of the body without signature_hash with your client secret.');
    }
    // Said only to a request its merchant signed: a key alone does not tell whether its merchant is disabled.
    if (merchant.disabled) throw unauthorized(MERCHANT_DISABLED);
    c.set('merchant', merchant);
    c.set('body', body);
    c.set('request', request);
    await next();
  };
}
