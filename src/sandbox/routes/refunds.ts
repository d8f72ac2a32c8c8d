// {base_url}/api/refund (seed 4.1, 4.2), behind a Bearer token from the token endpoint.
import { Hono } from 'hono';
import { CreateRefundRequest } from '../../contract/index.js';
import type { Gateway } from '../gateway.js';
import { readJsonObject } from '../http/body.js';
import { parseWith, unauthorized } from '../http/problem.js';
import { replayHeaders } from './replay.js';

type Env = { Variables: { merchantId: string } };

export function refundRoutes(gateway: Gateway): Hono<Env> {
  return new Hono<Env>()
    .use(async (c, next) => {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1];
      if (!token) throw unauthorized('An access token is required: Authorization: Bearer <access_token>.', { 'WWW-Authenticate': 'Bearer realm="pay-checkout"' });
      const merchantId = await gateway.tokens.merchantOf(token);
      if (!merchantId) {
        throw unauthorized('The access token is unknown or has expired; issue a new one.', {
          'WWW-Authenticate': 'Bearer realm="pay-checkout", error="invalid_token"',
        });
      }
      c.set('merchantId', merchantId);
      await next();
    })
    .post('/createRefund/:order_id', async (c) => {
      const body = await readJsonObject(c);
      const request = parseWith(CreateRefundRequest, body);
      const { value, replayed } = await gateway.refunds.create(c.get('merchantId'), c.req.param('order_id'), request, {
        key: c.req.header('Idempotency-Key'),
        method: c.req.method,
        path: c.req.path,
        body,
      });
      return c.json(value, 201, replayHeaders(replayed));
    })
    .get('/getDataByTransaction/:order_id', async (c) => c.json(await gateway.refunds.list(c.get('merchantId'), c.req.param('order_id'))));
}
