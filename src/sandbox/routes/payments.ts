// {base_url}/api/payments: the merchant's decisions about a held payment (Bearer, like the refund endpoints).
import { Hono } from 'hono';
import type { Gateway } from '../gateway.js';
import { bearer, type BearerEnv } from '../http/bearer.js';

export function paymentRoutes(gateway: Pick<Gateway, 'db' | 'tokens' | 'heldFunds' | 'linkResources'>): Hono<BearerEnv> {
  const { db, tokens, heldFunds, linkResources } = gateway;
  return new Hono<BearerEnv>().use(bearer(tokens)).post('/:payment_id/accept', async (c) => {
    const merchantId = c.get('merchantId');
    const link = await db.transaction((tx) => heldFunds.accept(tx, merchantId, c.req.param('payment_id')));
    return c.json(await linkResources.get(db, merchantId, link.payment_link_ref));
  });
}
