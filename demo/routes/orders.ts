// The order page's server side: the order as one view (its links, refunds, deliveries, the payout wallets), and what
// the merchant does to it (cancel a link, accept a payment, refund, cancel or retry a refund), all through the SDK.
import { Hono } from 'hono';
import type { CreateRefundRequest, PaymentLinkResource, PayoutWallets, RefundResource, WebhookDelivery } from '../../src/contract/index.js';
import { readJsonObject } from '../gateway-internals.js';
import type { SessionEnv } from '../session.js';

/** An order as the portal's order page shows it (GET /demo/api/orders/{order_id}). */
export interface OrderView {
  merchant_order_id: string;
  /** Every link of the order, newest first. */
  payment_links: PaymentLinkResource[];
  /** What the whole order still holds (the refund list's amountToRefund). */
  amountToRefund: number;
  /** Every refund of the order as the merchant sees it (coins, rate, destination, history, note), oldest first. */
  refunds: RefundResource[];
  /** Deliveries about the order's links to each of the merchant's endpoints, newest first. */
  deliveries: (WebhookDelivery & { endpoint_url: string })[];
  /** The merchant's payout wallets, which its refunds on a node's network leave, and its daily cap. */
  payout_wallets: PayoutWallets;
}

export function orderRoutes(): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();

  app.get('/demo/api/orders/:order_id', async (c) => {
    const { client } = c.get('session');
    const orderId = c.req.param('order_id');
    const [links, refunds, endpoints, payoutWallets] = await Promise.all([
      client.findPaymentLinks(orderId),
      client.listRefunds(orderId),
      client.listWebhookEndpoints(),
      client.getPayoutWallets(),
    ]);
    const deliveries = await Promise.all(
      endpoints.flatMap((endpoint) =>
        links.map(async (link) =>
          (await client.getWebhookDeliveries(endpoint.endpoint_id, { paymentLinkRef: link.payment_link_ref })).map((d) => ({ ...d, endpoint_url: endpoint.url })),
        ),
      ),
    );
    const view: OrderView = {
      merchant_order_id: orderId,
      payment_links: links,
      amountToRefund: refunds.amountToRefund,
      refunds: refunds.refunds,
      deliveries: deliveries.flat().sort((a, b) => b.delivery_id - a.delivery_id),
      payout_wallets: payoutWallets,
    };
    return c.json(view);
  });

  app.post('/demo/api/payment-links/:ref/cancel', async (c) => c.json(await c.get('session').client.cancelPaymentLink(c.req.param('ref'))));

  app.post('/demo/api/payments/:payment_id/accept', async (c) => c.json(await c.get('session').client.acceptPayment(c.req.param('payment_id'))));

  app.get('/demo/api/orders/:order_id/refunds', async (c) => c.json(await c.get('session').client.getRefunds(c.req.param('order_id'))));

  app.post('/demo/api/orders/:order_id/refunds', async (c) => {
    const body = await readJsonObject(c);
    // The gateway validates with the same contract schema the portal page checked before sending, and replays a
    // refund sent again under the page's Idempotency-Key (one per showing of the refund form).
    const idempotencyKey = c.req.header('Idempotency-Key');
    return c.json(await c.get('session').client.createRefund(c.req.param('order_id'), body as unknown as CreateRefundRequest, { idempotencyKey }), 201);
  });

  app.post('/demo/api/refunds/:refund_id/cancel', async (c) => {
    const { reason } = await readJsonObject(c, { optional: true });
    return c.json(await c.get('session').client.cancelRefund(c.req.param('refund_id'), typeof reason === 'string' && reason ? { reason } : {}));
  });

  app.post('/demo/api/refunds/:refund_id/retry', async (c) => c.json(await c.get('session').client.retryRefund(c.req.param('refund_id')), 201));
  return app;
}
