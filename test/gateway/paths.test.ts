// Path and query parameters are input too: a NUL (%00) anywhere in the URL is a 400 problem, never a 500.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

import { send } from '../helpers/merchant-api.js';

describe(`URLs with NUL characters (${storageName})`, () => {
  const gw = useTestGateway({ token: true });

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
      const answer = await send<{ status: number; detail: string }>(gw.url, method, path, { headers: { Authorization: `Bearer ${gw.token}`, 'Content-Type': 'application/json' }, body });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.match(answer.body.detail, /NUL/);
    });
  }
});
