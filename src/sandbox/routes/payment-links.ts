// {base_url}/api/paymentLink (docs/api.md, "Create a payment link", "Merchant-side truth").
import { PaymentLinkList, PaymentLinkListQuery, PaymentLinkRequest, PaymentLinkResource, PaymentLinkResponse } from '../../contract/index.js';
import type { Services } from '../services.js';
import { invalid } from '../errors.js';
import { merchantAction, merchantList, merchantRead } from './merchant.js';
import { route, type RouteGroup } from './route.js';

export const paymentLinkRoutes: RouteGroup<Pick<Services, 'paymentLinks' | 'merchantLinks' | 'linkCancels' | 'config'>> = {
  routes: [
    // Signed, not Bearer: the signed-body middleware (http/signed-body.ts) has read the body and checked the signature.
    route(
      'post',
      '/api/paymentLink',
      {
        tag: 'Merchant',
        summary: 'Create a payment link',
        auth: 'signature',
        body: PaymentLinkRequest,
        idempotent: true,
        ok: { 201: PaymentLinkResponse },
        errors: [401, 409, 422],
      },
      ({ paymentLinks, config }) =>
        async (c, { body, idempotency }) => {
          // The testers' shortcut through time is the sandbox's: a live link's quotes hold for the gateway's own time.
          if (config.environment === 'live' && body.sandbox_quote_ttl_seconds !== undefined) {
            const message = 'is a sandbox field: a live gateway refuses it';
            throw invalid(`sandbox_quote_ttl_seconds ${message}.`, [{ path: 'sandbox_quote_ttl_seconds', message }]);
          }
          return paymentLinks.create(c.var.merchant, body, idempotency);
        },
    ),
    // The merchant's read of its links: Bearer, like the refund endpoints. A page at a time, newest first, narrowed by
    // an order, a search, status, asset and dates (src/contract/merchant-read.ts, PaymentLinkListQuery).
    merchantList(
      '/api/paymentLink',
      {
        summary: 'Your payment links, newest first, a page at a time: search, filters, cursor',
        query: PaymentLinkListQuery,
        ok: { 200: PaymentLinkList },
        errors: [422],
      },
      ({ merchantLinks }) => merchantLinks.list.bind(merchantLinks),
    ),
    merchantRead('/api/paymentLink/{payment_link_ref}', { summary: 'A payment link as it stands', ok: { 200: PaymentLinkResource } }, ({ merchantLinks }) =>
      merchantLinks.get.bind(merchantLinks),
    ),
    // The merchant no longer wants the link (docs/api.md, "Cancel a payment link"): Bearer, like accepting a held payment.
    merchantAction(
      '/api/paymentLink/{payment_link_ref}/cancel',
      {
        summary: 'Cancel an active payment link that has received no money: it takes no new payment, and what still arrives is held for you',
        ok: { 200: PaymentLinkResource },
      },
      ({ linkCancels }) => linkCancels.cancel.bind(linkCancels),
    ),
  ],
};
