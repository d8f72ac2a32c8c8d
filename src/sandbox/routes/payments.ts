// {base_url}/api/payments: the merchant's decisions about a held payment (Bearer, like the refund endpoints).
import { PaymentLinkResource } from '../../contract/index.js';
import type { Services } from '../services.js';
import { merchantAction } from './merchant.js';
import type { RouteGroup } from './route.js';

export const paymentRoutes: RouteGroup<Pick<Services, 'heldPayments'>> = {
  routes: [
    merchantAction(
      '/api/payments/{payment_id}/accept',
      { summary: 'Accept a payment held for you (paid_late) while its link is not paid', ok: { 200: PaymentLinkResource } },
      ({ heldPayments }) => heldPayments.accept.bind(heldPayments),
    ),
  ],
};
