// Webhook endpoints and their delivery logs (Bearer): what the merchant portal shows, and manual redelivery.
import { Hono } from 'hono';
import { WebhookDeliveryQuery, WebhookEndpointRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { bearer, type BearerEnv } from '../http/bearer.js';
import { readJsonObject } from '../http/body.js';
import { badRequest, parseWith } from '../http/problem.js';

export function webhookRoutes({ webhookEndpoints: endpoints, tokens }: Pick<Services, 'webhookEndpoints' | 'tokens'>): Hono<BearerEnv> {
  return new Hono<BearerEnv>()
    .use(bearer(tokens))
    .get('/endpoints', async (c) => c.json({ endpoints: await endpoints.list(c.get('merchantId')) }))
    .post('/endpoints', async (c) => {
      const { url } = parseWith(WebhookEndpointRequest, await readJsonObject(c));
      return c.json(await endpoints.add(c.get('merchantId'), url), 201);
    })
    .delete('/endpoints/:endpoint_id', async (c) => {
      await endpoints.remove(c.get('merchantId'), c.req.param('endpoint_id'));
      return c.body(null, 204);
    })
    .get('/endpoints/:endpoint_id/deliveries', async (c) => {
      const { payment_link_ref } = parseWith(WebhookDeliveryQuery, c.req.query());
      return c.json({ deliveries: await endpoints.deliveries(c.get('merchantId'), c.req.param('endpoint_id'), payment_link_ref) });
    })
    .post('/deliveries/:delivery_id/redeliver', async (c) => {
      // Digits only: a number parser would also take " 1", "1e0" or "0x1" for the same delivery.
      const id = c.req.param('delivery_id');
      if (!/^[0-9]{1,15}$/.test(id)) throw badRequest('delivery_id must be a whole number, in digits only.');
      return c.json(await endpoints.redeliver(c.get('merchantId'), Number(id)));
    });
}
