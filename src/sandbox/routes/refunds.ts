// {base_url}/api/refund (docs/api.md, "Create a refund", "Get the refunds of an order"), behind a Bearer token from the token endpoint.
import { CreateRefundRequest, RefundList } from '../../contract/index.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { jsonText } from '../http/json-text.js';
import { parseWith } from '../http/problem.js';
import { idempotencyScope, replayHeaders } from './replay.js';
import { route, type RouteGroup } from './route.js';

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
        idempotent: true,
        ok: { 201: RefundList },
        errors: [404, 409, 422],
      },
      ({ refunds }) =>
        async (c) => {
          const body = await readJsonObject(c, { untyped: true });
          const request = parseWith(CreateRefundRequest, body);
          const { value, replayed } = await refunds.create(c.var.merchantId, c.req.param('order_id'), request, idempotencyScope(c, body));
          return c.json(value, 201, replayHeaders(replayed));
        },
    ),
    route(
      'get',
      '/api/refund/getDataByTransaction/{order_id}',
      { tag: 'Merchant', summary: 'The refunds of an order', auth: 'bearer', ok: { 200: RefundList }, errors: [404] },
      ({ refundLedger }) =>
        async (c) =>
          jsonText(c, await refundLedger.list(c.var.merchantId, c.req.param('order_id'))),
    ),
  ],
};
