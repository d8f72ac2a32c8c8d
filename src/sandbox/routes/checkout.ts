// The checkout API (docs/api.md, "Checkout API"): public, CORS open; the payment link ref is the bearer secret.
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { OpenPaymentRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { openCors } from '../http/cors.js';
import { EventStreams } from '../http/event-stream.js';
import { jsonText } from '../http/json-text.js';
import { badRequest, parseWith } from '../http/problem.js';

export function checkoutRoutes({ customerCheckout: checkout, paymentEvents }: Pick<Services, 'customerCheckout' | 'paymentEvents'>): Hono<{ Bindings: HttpBindings }> {
  const streams = new EventStreams();
  const corsOpen = openCors({ allowHeaders: ['Content-Type', 'Last-Event-ID'], maxAge: 600 });
  return new Hono<{ Bindings: HttpBindings }>()
    // An event stream writes its own headers (CORS included) before the middleware could add any.
    .use((c, next) => (c.req.method === 'GET' && c.req.path.endsWith('/events') ? next() : corsOpen(c, next)))
    .get('/:ref', async (c) => jsonText(c, await checkout.linkView(c.req.param('ref')), { 'Cache-Control': 'no-store' }))
    .post('/:ref/payments', async (c) => {
      // Untyped: the element sends no Content-Type, so another origin's page opens a payment without a CORS preflight.
      const request = parseWith(OpenPaymentRequest, await readJsonObject(c, { untyped: true }));
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
      const stream = streams.open(c.env.outgoing, { 'Access-Control-Allow-Origin': '*' });
      try {
        const unsubscribe = await paymentEvents.subscribe(ref, lastEventId === undefined ? undefined : Number(lastEventId), (events) => {
          for (const event of events) stream.send('payment', String(event.event_id), JSON.stringify(event.payment));
        });
        stream.onClose(unsubscribe);
      } catch (error) {
        // The answer has begun: the client reconnects (with Last-Event-ID) once this stream ends.
        console.error('event stream failed to start', error);
        stream.end();
      }
      return RESPONSE_ALREADY_SENT;
    });
}
