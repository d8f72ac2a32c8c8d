// The checkout API (DESIGN.md section 4): public, CORS open; the payment link ref is the bearer secret.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { OpenPaymentRequest } from '../../contract/index.js';
import type { Gateway } from '../gateway.js';
import { readJsonObject } from '../http/body.js';
import { badRequest, parseWith } from '../http/problem.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

export function checkoutRoutes(gateway: Gateway): Hono {
  const { payments, paymentEvents } = gateway;
  return new Hono()
    .use(cors({ origin: '*', allowHeaders: ['Content-Type', 'Last-Event-ID'], maxAge: 600 }))
    .get('/:ref', async (c) => c.json(await payments.view(c.req.param('ref')), 200, { 'Cache-Control': 'no-store' }))
    .post('/:ref/payments', async (c) => {
      const request = parseWith(OpenPaymentRequest, await readJsonObject(c));
      const { payment, created } = await payments.open(c.req.param('ref'), request);
      return c.json(payment, created ? 201 : 200);
    })
    .get('/:ref/payments/:payment_id', async (c) =>
      c.json(await payments.get(c.req.param('ref'), c.req.param('payment_id')), 200, { 'Cache-Control': 'no-store' }),
    )
    .get('/:ref/events', async (c) => {
      const ref = c.req.param('ref');
      await payments.assertLink(ref); // 404 before the stream opens
      const lastEventId = c.req.header('Last-Event-ID') ?? c.req.query('lastEventId');
      if (lastEventId !== undefined && !/^\d{1,15}$/.test(lastEventId)) throw badRequest('Last-Event-ID must be an event id this stream sent.');
      return streamSSE(c, async (stream) => {
        let cursor = lastEventId === undefined ? undefined : Number(lastEventId);
        // Writes run one after another, so a burst of NOTIFYs never sends an event twice or out of order.
        let pending = Promise.resolve();
        const flush = () => {
          pending = pending.then(async () => {
            for (const event of await paymentEvents.since(ref, cursor)) {
              await stream.writeSSE({ event: 'payment', id: String(event.event_id), data: JSON.stringify(event.payment) });
              cursor = event.event_id;
            }
            cursor ??= 0;
          });
          return pending;
        };
        const unsubscribe = paymentEvents.subscribe(ref, () => void flush().catch(() => stream.abort()));
        const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => stream.abort()), HEARTBEAT_MS);
        stream.onAbort(() => {
          clearInterval(heartbeat);
          unsubscribe();
        });
        await stream.write('retry: 2000\n\n');
        await flush();
        await new Promise<void>((resolve) => stream.onAbort(resolve));
      });
    });
}
