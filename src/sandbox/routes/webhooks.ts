// Webhook endpoints and their delivery logs (Bearer): what the merchant portal shows, and manual redelivery.
import * as z from 'zod/mini';
import {
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointRequest,
  WEBHOOK_TEST_EVENT,
} from '../../contract/index.js';
import type { Services } from '../services.js';
import { badRequest } from '../http/problem.js';
import { route, type RouteGroup } from './route.js';

/** Digits only: a number parser would also take " 1", "1e0" or "0x1" for the same delivery. */
function deliveryId(id: string): number {
  if (!/^[0-9]{1,15}$/.test(id)) throw badRequest('delivery_id must be a whole number, in digits only.');
  return Number(id);
}

export const webhookRoutes: RouteGroup<Pick<Services, 'webhookEndpoints'>> = {
  routes: [
    route(
      'get',
      '/api/webhooks/endpoints',
      { tag: 'Webhooks', summary: 'Your webhook endpoints', auth: 'bearer', ok: { 200: WebhookEndpointList } },
      ({ webhookEndpoints: endpoints }) =>
        async (c) =>
          c.json({ endpoints: await endpoints.list(c.var.merchantId) }),
    ),
    route(
      'post',
      '/api/webhooks/endpoints',
      {
        tag: 'Webhooks',
        summary: 'Add a webhook endpoint (keep its secret)',
        auth: 'bearer',
        body: WebhookEndpointRequest,
        idempotent: true,
        ok: { 201: WebhookEndpoint },
        maxBodyBytes: 8 * 1024,
        errors: [409, 413, 422, 429],
      },
      ({ webhookEndpoints: endpoints }) =>
        (c, { body, idempotency }) =>
          endpoints.add(c.var.merchantId, body.url, idempotency),
    ),
    route(
      'delete',
      '/api/webhooks/endpoints/{endpoint_id}',
      { tag: 'Webhooks', summary: 'Remove a webhook endpoint', auth: 'bearer', ok: { 204: null }, errors: [404] },
      ({ webhookEndpoints: endpoints }) =>
        async (c) => {
          await endpoints.remove(c.var.merchantId, c.req.param('endpoint_id'));
          return c.body(null, 204);
        },
    ),
    route(
      'get',
      '/api/webhooks/endpoints/{endpoint_id}/deliveries',
      {
        tag: 'Webhooks',
        summary: "An endpoint's delivery log (of one payment link with ?payment_link_ref)",
        auth: 'bearer',
        query: WebhookDeliveryQuery,
        ok: { 200: WebhookDeliveryList },
        errors: [404, 422],
      },
      ({ webhookEndpoints: endpoints }) =>
        async (c, { query }) =>
          c.json({ deliveries: await endpoints.deliveries(c.var.merchantId, c.req.param('endpoint_id'), query.payment_link_ref) }),
    ),
    route(
      'post',
      '/api/webhooks/endpoints/{endpoint_id}/test',
      {
        tag: 'Webhooks',
        summary: `Send an endpoint a test event (${WEBHOOK_TEST_EVENT}), signed and delivered as every event is`,
        auth: 'bearer',
        ok: { 201: WebhookDelivery },
        errors: [404],
      },
      ({ webhookEndpoints: endpoints }) =>
        async (c) =>
          c.json(await endpoints.sendTest(c.var.merchantId, c.req.param('endpoint_id')), 201),
    ),
    route(
      'get',
      '/api/webhooks/deliveries/{delivery_id}',
      {
        tag: 'Webhooks',
        summary: 'A delivery: the body it sends, and every attempt with the status and the start of the answer',
        auth: 'bearer',
        params: { delivery_id: z.int() },
        ok: { 200: WebhookDeliveryDetail },
        errors: [400, 404],
      },
      ({ webhookEndpoints: endpoints }) =>
        async (c) =>
          c.json(await endpoints.delivery(c.var.merchantId, deliveryId(c.req.param('delivery_id')))),
    ),
    route(
      'post',
      '/api/webhooks/deliveries/{delivery_id}/redeliver',
      { tag: 'Webhooks', summary: 'Send a delivery again', auth: 'bearer', params: { delivery_id: z.int() }, ok: { 200: WebhookDelivery }, errors: [400, 404] },
      ({ webhookEndpoints: endpoints }) =>
        async (c) =>
          c.json(await endpoints.redeliver(c.var.merchantId, deliveryId(c.req.param('delivery_id')))),
    ),
  ],
};
