// The checkout API (DESIGN.md section 4): public, CORS open; the payment link ref is the bearer secret.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { OpenPaymentRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { badRequest, parseWith } from '../http/problem.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

export function checkoutRoutes({ checkout, paymentEvents }: Pick<Services, 'checkout' | 'paymentEvents'>): Hono {
  return new Hono()
    .use(cors({ origin: '*', allowHeaders: ['Content-Type', 'Last-Event-ID'], maxAge: 600 }))
    .get('/:ref', async (c) => c.json(await checkout.linkView(c.req.param('ref')), 200, { 'Cache-Control': 'no-store' }))
    .post('/:ref/payments', async (c) => {
      const request = parseWith(OpenPaymentRequest, await readJsonObject(c));
      const { payment, created } = await checkout.open(c.req.param('ref'), request);
      return c.json(payment, created ? 201 : 200);
    })
    .get('/:ref/payments/:payment_id', async (c) =>
      c.json(await checkout.payment(c.req.param('ref'), c.req.param('payment_id')), 200, { 'Cache-Control': 'no-store' }),
    )
    .get('/:ref/events', async (c) => {
      const ref = c.req.param('ref');
      await checkout.assertLink(ref); // 404 before the stream opens
      const lastEventId = c.req.header('Last-Event-ID') ?? c.req.query('lastEventId');
      if (lastEventId !== undefined && !/^\d{1,15}$/.test(lastEventId)) throw badRequest('Last-Event-ID must be an event id this stream sent.');
      return streamSSE(c, async (stream) => {
        // Writes run one after another, so a burst of events is sent in order.
        let writing = Promise.resolve();
        const unsubscribe = await paymentEvents.subscribe(ref, lastEventId === undefined ? undefined : Number(lastEventId), (events) => {
          writing = writing
            .then(async () => {
              for (const event of events) await stream.writeSSE({ event: 'payment', id: String(event.event_id), data: JSON.stringify(event.payment) });
            })
            .catch(() => stream.abort());
        });
        const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => stream.abort()), HEARTBEAT_MS);
        stream.onAbort(() => {
          clearInterval(heartbeat);
          unsubscribe();
        });
        await stream.write('retry: 2000\n\n');
        await new Promise<void>((resolve) => stream.onAbort(resolve));
      });
    });
}
