// {base_url}/api/refund (docs/api.md, "Create a refund", "Get the refunds of an order"), behind a Bearer token from the token endpoint.
import { Hono } from 'hono';
import { CreateRefundRequest } from '../../contract/index.js';
import type { Services } from '../services.js';
import { readJsonObject } from '../http/body.js';
import { bearer, type BearerEnv } from '../http/bearer.js';
import { jsonText } from '../http/json-text.js';
import { parseWith } from '../http/problem.js';
import { replayHeaders } from './replay.js';

export function refundRoutes({ refunds, refundLedger, tokens }: Pick<Services, 'refunds' | 'refundLedger' | 'tokens'>): Hono<BearerEnv> {
  return new Hono<BearerEnv>()
    .use(bearer(tokens))
    .post('/createRefund/:order_id', async (c) => {
      const body = await readJsonObject(c, { untyped: true });
      const request = parseWith(CreateRefundRequest, body);
      const { value, replayed } = await refunds.create(c.get('merchantId'), c.req.param('order_id'), request, {
        key: c.req.header('Idempotency-Key'),
        method: c.req.method,
        path: c.req.path,
        body,
      });
      return c.json(value, 201, replayHeaders(replayed));
    })
    .get('/getDataByTransaction/:order_id', async (c) => jsonText(c, await refundLedger.list(c.get('merchantId'), c.req.param('order_id'))));
}
