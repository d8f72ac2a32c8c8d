// Every route of the gateway, by resource, in the order app.ts mounts them and the OpenAPI document lists them; a live
// gateway mounts and lists all but the sandbox's (routeGroups).
// The document describes its own route too: ./openapi.ts, in this list, is handed routesOf and reads it (and the
// document) only when the document is asked for, never as the modules load.
import type { Environment } from '../../contract/index.js';
import type { Services } from '../services.js';
import { assetRoutes } from './assets.js';
import { checkoutRoutes } from './checkout.js';
import { clientSecretRoutes } from './client-secret.js';
import { eventRoutes } from './events.js';
import { oauthRoutes } from './oauth.js';
import { openApiRoutes } from './openapi.js';
import { operationsRoutes } from './operations.js';
import { paymentLinkRoutes } from './payment-links.js';
import { paymentRoutes } from './payments.js';
import { payoutRoutes } from './payouts.js';
import { receiptRoutes } from './receipt.js';
import { refundClaimRoutes } from './refund-claims.js';
import { refundRoutes } from './refunds.js';
import type { Declaration, RouteGroup } from './route.js';
import { sandboxRoutes } from './sandbox.js';
import { webhookRoutes } from './webhooks.js';

export const ROUTE_GROUPS: RouteGroup<Services>[] = [
  oauthRoutes,
  clientSecretRoutes,
  paymentLinkRoutes,
  refundRoutes,
  payoutRoutes,
  paymentRoutes,
  webhookRoutes,
  eventRoutes,
  checkoutRoutes,
  sandboxRoutes,
  assetRoutes,
  receiptRoutes,
  refundClaimRoutes,
  openApiRoutes((environment) => routesOf(environment)),
  operationsRoutes,
];

export const ROUTES: Declaration[] = ROUTE_GROUPS.flatMap((group) => group.routes);

/** The routes an environment serves: live leaves out /sandbox/*, so each answers 404 as any unknown path does. */
export const routeGroups = (environment: Environment): RouteGroup<Services>[] =>
  environment === 'live' ? ROUTE_GROUPS.filter((group) => group !== sandboxRoutes) : ROUTE_GROUPS;

export const routesOf = (environment: Environment): Declaration[] => routeGroups(environment).flatMap((group) => group.routes);
