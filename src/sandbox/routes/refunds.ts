// {base_url}/api/refund (docs/api.md, "Create a refund", "Get the refunds of an order") and the merchant's own view of
// each refund under /api/refunds ("A refund, as the merchant sees it"), behind a Bearer token from the token endpoint.
import * as z from 'zod/mini';
import { CancelRefundRequest, CreateRefundRequest, expected, RefundList, RefundResource, RefundResourceList } from '../../contract/index.js';
import type { Services } from '../services.js';
import { jsonText } from '../http/json-text.js';
import { merchantAction, merchantList, merchantRead } from './merchant.js';
import { route, type RouteGroup } from './route.js';

const ORDER_QUERY = z.object({ order_id: z.string(expected('an order id')).check(z.minLength(1, 'must not be empty')) });

export const refundRoutes: RouteGroup<Pick<Services, 'refunds' | 'refundLedger'>> = {
  routes: [
    route(
      'post',
      '/api/refund/createRefund/{order_id}',
      {
        tag: 'Merchant',
        summary: 'Refund part or all of an order',
        auth: 'bearer',
        body: CreateRefundRequest,
        read: { untyped: true },
        idempotent: true,
        ok: { 201: RefundList },
        errors: [404, 409, 422],
      },
      ({ refunds }) =>
        (c, { body, idempotency }) =>
          refunds.create(c.var.merchantId, c.req.param('order_id'), body, idempotency),
    ),
    route(
      'get',
      '/api/refund/getDataByTransaction/{order_id}',
      { tag: 'Merchant', summary: 'The refunds of an order', auth: 'bearer', ok: { 200: RefundList }, errors: [404] },
      ({ refundLedger }) =>
        async (c) =>
          jsonText(c, await refundLedger.list(c.var.merchantId, c.req.param('order_id'))),
    ),
    merchantList(
      '/api/refunds',
      {
        summary: "An order's refunds with what each sends and where, its rate and its history: `?order_id=`",
        query: ORDER_QUERY,
        ok: { 200: RefundResourceList },
        errors: [404],
      },
      ({ refunds }) =>
        (merchantId, { order_id }) =>
          refunds.list(merchantId, order_id),
    ),
    merchantRead(
      '/api/refunds/{refund_id}',
      { summary: 'A refund: what it sends and where, its rate, its history', ok: { 200: RefundResource } },
      ({ refunds }) => refunds.get.bind(refunds),
    ),
    route(
      'post',
      '/api/refunds/{refund_id}/cancel',
      {
        tag: 'Merchant',
        summary: 'Cancels a PENDING refund nothing of which was sent: FAILED with the reason, its amount refundable again',
        auth: 'bearer',
        body: CancelRefundRequest,
        read: { untyped: true, optional: true },
        ok: { 200: RefundResource },
        errors: [404, 409],
      },
      ({ refunds }) =>
        async (c, { body }) =>
          c.json(await refunds.cancel(c.var.merchantId, c.req.param('refund_id'), body), 200),
    ),
    merchantAction(
      '/api/refunds/{refund_id}/retry',
      { summary: 'Makes a FAILED refund again: a new PENDING refund of the same payment and amount', ok: { 201: RefundResource } },
      ({ refunds }) => refunds.retry.bind(refunds),
    ),
  ],
};
