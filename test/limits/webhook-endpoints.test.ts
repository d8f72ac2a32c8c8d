// A merchant has at most 16 live webhook endpoints (docs/security.md, "Limits"): each event is one delivery to each,
// so endpoints without bound would let one merchant fill every process's delivery queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PayCheckoutApiError } from '../../src/merchant/errors.js';
import { startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';

describe(`webhook endpoints per merchant (${storageName})`, () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw?.close());

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
});
