// Routes that need little take little (docs/security.md, "Limits"): a body past a route's own limit is a 413 before it
// is read, and a deep one a 400 before it is parsed, so large or deep bodies cost the gateway next to nothing.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe(`bodies held to what a route needs (${storageName})`, () => {
  const gw = useTestGateway();

  it('answers 413 past 16 KiB for a payment open and 8 KiB for a webhook endpoint, and 400 for a deep body', async () => {
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    const open = (body: string) => fetch(`${gw.url}/api/checkout/${ref}/payments`, { method: 'POST', body: new Blob([body]) });
    const coin = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' };
    const large = await open(JSON.stringify({ ...coin, customer: { note: 'x'.repeat(20 * 1024) } }));
    assert.deepEqual([large.status, large.headers.get('content-type')], [413, 'application/problem+json']);
    assert.equal((await open(`{"customer":${'['.repeat(5_000)}${']'.repeat(5_000)}}`)).status, 400);
    const { access_token } = await gw.client.issueToken();
    const endpoint = await fetch(`${gw.url}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `https://hooks.example/${'x'.repeat(9 * 1024)}` }),
    });
    assert.equal(endpoint.status, 413);
    assert.equal((await open(JSON.stringify(coin))).status, 201, 'a real open still fits');
  });
});
