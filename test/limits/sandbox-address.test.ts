// The sandbox controls answer nothing that maps an on-chain address (public) to its link's ref (the customer's bearer
// secret): ending a quote by address answers 204 with no body.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe(`sandbox controls by address (${storageName})`, () => {
  const gw = useTestGateway();

  it('ends the quote of the payment at an address and says nothing of its link', async () => {
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, ref).open('USDT', 'TRON');
    const answer = await fetch(`${gw.url}/sandbox/addresses/${payment.address}/expire-quote`, { method: 'POST' });
    const text = await answer.text();
    assert.equal(answer.status, 204);
    assert.equal(text, '');
    assert.equal((await checkoutApi(gw.url, ref).payment(payment.payment_id)).body.status, 'expired');
  });
});
