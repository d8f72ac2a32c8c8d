// POST /api/merchant/client-secret/roll: a new client secret for the merchant of the token, answered once; the old
// one, and every token it issued, ends now or after `expires_in` seconds (docs/api.md, "Roll the client secret").
import { ClientSecretRoll, ClientSecretRollRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { route, type RouteGroup } from './route.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

export const clientSecretRoutes: RouteGroup<Pick<Services, 'merchants'>> = {
  routes: [
    route(
      'post',
      '/api/merchant/client-secret/roll',
      {
        tag: 'Merchant',
        summary: 'Roll the client secret (the old one ends now, or after expires_in seconds)',
        auth: 'bearer',
        body: ClientSecretRollRequest,
        read: { optional: true },
        ok: { 200: ClientSecretRoll },
        maxBodyBytes: 1024,
        errors: [413, 422],
      },
      ({ merchants }) =>
        async (c, { body }) =>
          c.json(await merchants.rollSecret(c.var.merchantId, body.expires_in), 200, NO_STORE),
    ),
  ],
};
