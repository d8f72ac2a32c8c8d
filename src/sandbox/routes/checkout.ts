// The checkout API (docs/api.md, "Checkout API"): public, CORS open; the payment link ref is the bearer secret.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { CheckoutView, OpenPaymentRequest, Payment } from '../../contract/index.js';
import type { Services } from '../services.js';
import { clientAddress } from '../http/client-address.js';
import { openCors } from '../http/cors.js';
import { jsonText } from '../http/json-text.js';
import { badRequest } from '../http/problem.js';
import { log } from '../logging.js';
import { media, route, type RouteGroup } from './route.js';

const corsOpen = openCors({ allowHeaders: ['Content-Type', 'Last-Event-ID'], maxAge: 600 });

export const checkoutRoutes: RouteGroup<Pick<Services, 'customerCheckout' | 'paymentEvents' | 'eventStreams'>> = {
  // An event stream writes its own headers (CORS included) before the middleware could add any.
  use: ['/api/checkout/*', (c, next) => (c.req.method === 'GET' && c.req.path.endsWith('/events') ? next() : corsOpen(c, next))],
  routes: [
    route(
      'get',
      '/api/checkout/{ref}',
      { tag: 'Checkout', summary: "The customer's view of a payment link", ok: { 200: CheckoutView }, errors: [404] },
      ({ customerCheckout: checkout }) =>
        async (c) =>
          jsonText(c, await checkout.linkView(c.req.param('ref')), { 'Cache-Control': 'no-store' }),
    ),
    route(
      'post',
      '/api/checkout/{ref}/payments',
      {
        tag: 'Checkout',
        summary: 'Open a payment (or return the one still open in that asset)',
        body: OpenPaymentRequest,
        // Untyped: the element sends no Content-Type, so another origin's page opens a payment without a CORS preflight.
        read: { untyped: true },
        ok: { 201: Payment, 200: Payment },
        // The coin, and the customer's few fields: no customer needs more.
        maxBodyBytes: 16 * 1024,
        errors: [404, 409, 410, 413, 422, 429],
      },
      ({ customerCheckout: checkout }) =>
        async (c, { body }) => {
          const { payment, created } = await checkout.open(c.req.param('ref'), body, clientAddress(c));
          return c.json(payment, created ? 201 : 200);
        },
    ),
    route(
      'get',
      '/api/checkout/{ref}/payments/{payment_id}',
      { tag: 'Checkout', summary: 'A payment', ok: { 200: Payment }, errors: [404] },
      ({ customerCheckout: checkout }) =>
        async (c) =>
          c.json(await checkout.payment(c.req.param('ref'), c.req.param('payment_id')), 200, { 'Cache-Control': 'no-store' }),
    ),
    route(
      'get',
      '/api/checkout/{ref}/events',
      {
        tag: 'Checkout',
        summary: "The link's payments as Server-Sent Events",
        lastEventId: true,
        ok: {
          200: media(
            'text/event-stream',
            '`event: payment`, `id: <event id>`, `data: <the Payment as JSON>` on every change; `retry: 2000` first, a comment every 15 s.',
          ),
        },
        errors: [400, 404, 429],
      },
      ({ customerCheckout: checkout, paymentEvents, eventStreams: streams }) => {
        return async (c) => {
          const ref = c.req.param('ref');
          await checkout.assertLink(ref); // 404 before the stream opens
          const lastEventId = c.req.header('Last-Event-ID') ?? c.req.query('lastEventId');
          if (lastEventId !== undefined && !/^\d{1,15}$/.test(lastEventId)) throw badRequest('Last-Event-ID must be an event id this stream sent.');
          const stream = streams.open(c.env.outgoing, { client: clientAddress(c), link: ref }, { 'Access-Control-Allow-Origin': '*' });
          if (!stream.live) return RESPONSE_ALREADY_SENT;
          try {
            const unsubscribe = await paymentEvents.subscribe(ref, lastEventId === undefined ? undefined : Number(lastEventId), (events) => {
              for (const event of events) stream.send('payment', String(event.event_id), JSON.stringify(event.payment));
            });
            stream.onClose(unsubscribe);
          } catch (error) {
            // The answer has begun: the client reconnects (with Last-Event-ID) once this stream ends.
            log.error({ err: error }, 'event stream failed to start');
            stream.end();
          }
          return RESPONSE_ALREADY_SENT;
        };
      },
    ),
  ],
};
