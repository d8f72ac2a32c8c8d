// The events API (Bearer): a merchant's events in the order they were made, to catch up on what its webhooks missed.
import { MerchantEventList, MerchantEventQuery, MerchantEventResource } from '../../contract/index.js';
import type { Services } from '../services.js';
import { merchantRead } from './merchant.js';
import { route, type RouteGroup } from './route.js';

export const eventRoutes: RouteGroup<Pick<Services, 'merchantEvents'>> = {
  routes: [
    route(
      'get',
      '/api/events',
      {
        tag: 'Merchant',
        summary: 'Your events, oldest first, each its webhook body with its sequence; after=<event id> for the next page',
        auth: 'bearer',
        query: MerchantEventQuery,
        // A query that cannot be read is a 400 naming each field: it is not a rule of the API it breaks, but its form.
        malformedQuery: true,
        ok: { 200: MerchantEventList },
        errors: [400],
      },
      ({ merchantEvents }) =>
        async (c, { query }) =>
          c.json(await merchantEvents.list(c.var.merchantId, query)),
    ),
    merchantRead('/api/events/{event_id}', { summary: 'One of your events', ok: { 200: MerchantEventResource } }, ({ merchantEvents }) =>
      merchantEvents.get.bind(merchantEvents),
    ),
  ],
};
