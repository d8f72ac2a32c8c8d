// {base_url}/api/payments: the merchant's decisions about a held payment (Bearer, like the refund endpoints).
import { Hono } from 'hono';
import type { Services } from '../services.js';
import { bearer, type BearerEnv } from '../http/bearer.js';

export function paymentRoutes({ tokens, heldPayments }: Pick<Services, 'tokens' | 'heldPayments'>): Hono<BearerEnv> {
  return new Hono<BearerEnv>()
    .use(bearer(tokens))
    .post('/:payment_id/accept', async (c) => c.json(await heldPayments.accept(c.get('merchantId'), c.req.param('payment_id'))));
}
