// A merchant has at most 16 live webhook endpoints (docs/security.md, "Limits"): each event is one delivery to each,
// so endpoints without bound would let one merchant fill every process's delivery queue. It may add 60 a minute: an
// add past the cap still costs a transaction, so a flood of them is refused before one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PayCheckoutApiError } from '../../src/merchant/errors.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

describe(`webhook endpoints per merchant (${storageName})`, () => {
  const gw = useTestGateway();

  it('refuses the 17th endpoint with a 409 that says what to do, counts one merchant only, and takes one again after a removal', async () => {
    const added = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => gw.client.addWebhookEndpoint(`http://127.0.0.1:9/hook-${i}`)));
    assert.equal(added.filter((a) => a.status === 'fulfilled').length, 16);
    const refused = added.find((a) => a.status === 'rejected')!.reason as PayCheckoutApiError;
    assert.equal(refused.status, 409);
    assert.match(refused.message, /at most 16 webhook endpoints/);
    assert.equal((await gw.client.listWebhookEndpoints()).length, 16);

    const other = await gw.addMerchant();
    await other.client.addWebhookEndpoint('http://127.0.0.1:9/theirs');
    const [first] = await gw.client.listWebhookEndpoints();
    await gw.client.removeWebhookEndpoint(first!.endpoint_id);
    await gw.client.addWebhookEndpoint('http://127.0.0.1:9/again');
  });

  it('refuses the 61st add in a minute with a 429 and Retry-After, for that merchant only, and takes adds again the next minute', async () => {
    const { client } = await gw.addMerchant();
    const statuses = [];
    for (let i = 0; i < 61; i++) {
      statuses.push(await client.addWebhookEndpoint(`http://127.0.0.1:9/flood-${i}`).then(() => 201, (error: PayCheckoutApiError) => error.status));
    }
    assert.deepEqual(statuses, [...Array<number>(16).fill(201), ...Array<number>(44).fill(409), 429]);
    const refused = await fetch(new URL('/api/webhooks/endpoints', gw.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${(await client.issueToken()).access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/one-more' }),
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60, refused.headers.get('retry-after') ?? 'no Retry-After');
    assert.match(((await refused.json()) as { detail: string }).detail, /Too many webhook endpoints added by this merchant in a minute/);

    const other = await gw.addMerchant();
    await other.client.addWebhookEndpoint('http://127.0.0.1:9/theirs');
    gw.clock.advance(60_000);
    const [first] = await client.listWebhookEndpoints();
    await client.removeWebhookEndpoint(first!.endpoint_id);
    await client.addWebhookEndpoint('http://127.0.0.1:9/next-minute');
  });
});
