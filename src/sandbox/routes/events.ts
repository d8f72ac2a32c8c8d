// The events API (Bearer): a merchant's events in the order they were made, to catch up on what its webhooks missed.
import { MerchantEventList, MerchantEventQuery, MerchantEventResource } from '../../contract/index.js';
import type { Services } from '../services.js';
import { merchantList, merchantRead } from './merchant.js';
import type { RouteGroup } from './route.js';

export const eventRoutes: RouteGroup<Pick<Services, 'merchantEvents'>> = {
  routes: [
    merchantList(
      '/api/events',
      {
        summary: 'Your events, oldest first, each its webhook body with its sequence; after=<event id> for the next page',
        query: MerchantEventQuery,
        // A query that cannot be read is a 400 naming each field: it is not a rule of the API it breaks, but its form.
        malformedQuery: true,
        ok: { 200: MerchantEventList },
        errors: [400],
      },
      ({ merchantEvents }) => merchantEvents.list.bind(merchantEvents),
    ),
    merchantRead('/api/events/{event_id}', { summary: 'One of your events', ok: { 200: MerchantEventResource } }, ({ merchantEvents }) =>
      merchantEvents.get.bind(merchantEvents),
    ),
  ],
};
