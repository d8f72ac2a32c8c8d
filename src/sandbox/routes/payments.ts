// {base_url}/api/payments: the merchant's decisions about a held payment (Bearer, like the refund endpoints).
import { PaymentLinkResource } from '../../contract/index.js';
import type { Services } from '../services.js';
import { route, type RouteGroup } from './route.js';

export const paymentRoutes: RouteGroup<Pick<Services, 'heldPayments'>> = {
  routes: [
    route(
      'post',
      '/api/payments/{payment_id}/accept',
      {
        tag: 'Merchant',
        summary: 'Accept a payment held for you (paid_late) while its link is not paid',
        auth: 'bearer',
        idempotent: true,
        ok: { 200: PaymentLinkResource },
        errors: [404, 409],
      },
      ({ heldPayments }) =>
        (c, { idempotency }) =>
          heldPayments.accept(c.var.merchantId, c.req.param('payment_id'), idempotency),
    ),
  ],
};
