// The webhooks page's server side: endpoints, delivery logs, redelivery, all through the SDK. The page shows the
// signing secrets, as a merchant dashboard does.
import { Hono, type Context } from 'hono';
import { badRequest, readJsonObject } from '../gateway-internals.js';
import type { SessionEnv } from '../session.js';

export function webhookRoutes(): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const client = (c: Context<SessionEnv>) => c.get('session').client;

  app.get('/demo/api/webhooks/endpoints', async (c) => c.json({ endpoints: await client(c).listWebhookEndpoints() }));
  app.post('/demo/api/webhooks/endpoints', async (c) => {
    const { url } = await readJsonObject(c);
    // Passed on as sent: the gateway's 422 names the field and the rule, and the page shows it there.
    return c.json(await client(c).addWebhookEndpoint(url as string), 201);
  });
  app.delete('/demo/api/webhooks/endpoints/:endpoint_id', async (c) => {
    await client(c).removeWebhookEndpoint(c.req.param('endpoint_id'));
    return c.body(null, 204);
  });
  app.get('/demo/api/webhooks/endpoints/:endpoint_id/deliveries', async (c) =>
    c.json({ deliveries: await client(c).getWebhookDeliveries(c.req.param('endpoint_id')) }),
  );
  app.post('/demo/api/webhooks/endpoints/:endpoint_id/test', async (c) => c.json(await client(c).sendTestWebhook(c.req.param('endpoint_id')), 201));
  app.get('/demo/api/webhooks/deliveries/:delivery_id', async (c) => c.json(await client(c).getWebhookDelivery(deliveryIdOf(c))));
  app.post('/demo/api/webhooks/deliveries/:delivery_id/redeliver', async (c) => c.json(await client(c).redeliverWebhook(deliveryIdOf(c))));
  return app;
}

function deliveryIdOf(c: Context): number {
  const id = c.req.param('delivery_id') ?? '';
  if (!/^[0-9]{1,15}$/.test(id)) throw badRequest('delivery_id must be a whole number.');
  return Number(id);
}
