// The events API (Bearer): a merchant's events in the order they were made, to catch up on what its webhooks missed.
import { fieldErrors, MerchantEventList, MerchantEventQuery, MerchantEventResource } from '../../contract/index.js';
import { malformed } from '../errors.js';
import type { Services } from '../services.js';
import { route, type RouteGroup } from './route.js';

/** A query that cannot be read is a 400 naming each field: it is not a rule of the API it breaks, but its form. */
function eventQuery(query: Record<string, string>): MerchantEventQuery {
  const result = MerchantEventQuery.safeParse(query);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  throw malformed(`The query has ${errors.length} invalid parameter${errors.length === 1 ? '' : 's'}: ${errors.map((e) => e.path).join(', ')}.`, errors);
}

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
        ok: { 200: MerchantEventList },
        errors: [400],
      },
      ({ merchantEvents }) =>
        async (c) =>
          c.json(await merchantEvents.list(c.var.merchantId, eventQuery(c.req.query()))),
    ),
    route(
      'get',
      '/api/events/{event_id}',
      { tag: 'Merchant', summary: 'One of your events', auth: 'bearer', ok: { 200: MerchantEventResource }, errors: [404] },
      ({ merchantEvents }) =>
        async (c) =>
          c.json(await merchantEvents.get(c.var.merchantId, c.req.param('event_id'))),
    ),
  ],
};
