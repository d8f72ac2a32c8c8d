// {base_url}/api/paymentLink (docs/api.md, "Create a payment link", "Merchant-side truth").
import { Hono } from 'hono';
import { PaymentLinkListQuery, PaymentLinkRequest } from '../../contract/index.js';
import { verifyPaymentLinkSignature } from '../../merchant/signature.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { bearer, type BearerEnv } from '../http/bearer.js';
import { parseWith, unauthorized } from '../http/problem.js';
import { replayHeaders } from './replay.js';

export function paymentLinkRoutes({ merchantLinks, tokens, merchants, paymentLinks }: Pick<Services, 'merchantLinks' | 'tokens' | 'merchants' | 'paymentLinks'>): Hono<BearerEnv> {
  return new Hono<BearerEnv>()
    .post('/', async (c) => {
      const body = await readJsonObject(c);
      const request = parseWith(PaymentLinkRequest, body);
      const merchant = await merchants.byMerchantKey(request.svc_key);
      if (!merchant) throw unauthorized('svc_key is not a known merchant key.');
      if (body.signature_hash === undefined) throw unauthorized('signature_hash is required: the base64 HMAC-SHA256 of the body (see README, "Signing a payment link").');
      if (!(await verifyPaymentLinkSignature(body, merchant.clientSecret))) {
        throw unauthorized('signature_hash does not match the body: sign the JCS form of the body without signature_hash with your client secret.');
      }
      const { value, replayed } = await paymentLinks.create(merchant, request, {
        key: c.req.header('Idempotency-Key'),
        method: c.req.method,
        path: c.req.path,
        body,
      });
      return c.json(value, 201, replayHeaders(replayed));
    })
    // The merchant's read of its links: Bearer, like the refund endpoints. A page at a time, newest first, narrowed by
    // an order, a search, status, asset and dates (src/contract/merchant-read.ts, PaymentLinkListQuery).
    .get('/', bearer(tokens), async (c) => c.json(await merchantLinks.list(c.get('merchantId'), parseWith(PaymentLinkListQuery, c.req.query()))))
    .get('/:payment_link_ref', bearer(tokens), async (c) => c.json(await merchantLinks.get(c.get('merchantId'), c.req.param('payment_link_ref'))));
}
