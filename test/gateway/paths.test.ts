// Path and query parameters are input too: a NUL (%00) anywhere in the URL is a 400 problem, never a 500.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { accessToken, send } from '../helpers/merchant-api.js';

describe(`URLs with NUL characters (${storageName})`, () => {
  let gw: TestGateway;
  let bearer: Record<string, string>;
  before(async () => {
    gw = await startTestGateway();
    bearer = { Authorization: `Bearer ${await accessToken(gw.url, gw.credentials)}`, 'Content-Type': 'application/json' };
  });
  after(() => gw.close());

  const requests: [string, string][] = [
    ['GET', '/api/refund/getDataByTransaction/a%00b'],
    ['POST', '/api/refund/createRefund/a%00b'],
    ['GET', '/api/paymentLink/pl_%00'],
    ['GET', '/api/paymentLink?merchant_order_id=a%00'],
    ['GET', '/api/checkout/pl_%00'],
    ['GET', '/api/checkout/pl_%00/events'],
    ['POST', '/api/checkout/pl_%00/payments'],
    ['GET', '/api/checkout/pl_x/payments/%00'],
  ];
  for (const [method, path] of requests) {
    it(`${method} ${path} is a 400 problem`, async () => {
      const body = method === 'POST' ? JSON.stringify({ amount: 1 }) : undefined;
      const answer = await send<{ status: number; detail: string }>(gw.url, method, path, { headers: bearer, body });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.match(answer.body.detail, /NUL/);
    });
  }
});
