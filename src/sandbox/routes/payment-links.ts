// POST {base_url}/api/paymentLink (seed 4.3).
import { Hono } from 'hono';
import { PaymentLinkRequest } from '../../contract/index.js';
import { verifyPaymentLinkSignature } from '../../merchant/signature.js';
import type { Gateway } from '../gateway.js';
import { readJsonObject } from '../http/body.js';
import { parseWith, unauthorized } from '../http/problem.js';
import { replayHeaders } from './replay.js';

export function paymentLinkRoutes(gateway: Gateway): Hono {
  return new Hono().post('/', async (c) => {
    const body = await readJsonObject(c);
    const request = parseWith(PaymentLinkRequest, body);
    const merchant = await gateway.merchants.byMerchantKey(request.svc_key);
    if (!merchant) throw unauthorized('svc_key is not a known merchant key.');
    if (body.signature_hash === undefined) throw unauthorized('signature_hash is required: the base64 HMAC-SHA256 of the body (see README, "Signing a payment link").');
    if (!verifyPaymentLinkSignature(body, merchant.clientSecret)) {
      throw unauthorized('signature_hash does not match the body: sign the JCS form of the body without signature_hash with your client secret.');
    }
    const { value, replayed } = await gateway.paymentLinks.create(merchant, request, {
      key: c.req.header('Idempotency-Key'),
      method: c.req.method,
      path: c.req.path,
      body,
    });
    return c.json(value, 201, replayHeaders(replayed));
  });
}
