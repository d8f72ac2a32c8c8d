import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, sampleRefund, storageName } from '../helpers/gateway.js';

describe(`merchant API round trip (${storageName})`, () => {
  const gw = useTestGateway();

  it('creates a link, refunds part of the paid order and lists the refund', async () => {
    const link = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: 'smoke-1' }));
    assert.match(link.payment_link_ref, /^pl_/);
    assert.equal(link.payment_link, `${gw.gateway.config.checkoutUrl}?ref=${link.payment_link_ref}`);
    await gw.markPaid(link.payment_link_ref);
    const list = await gw.client.createRefund('smoke-1', sampleRefund(60_000));
    assert.equal(list.amountToRefund, 300_000);
    assert.equal(list.refundDetails.length, 1);
    assert.match(list.refundDetails[0]!.refund_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    assert.equal(list.refundDetails[0]!.currency, 'vnd');
    assert.deepEqual(await gw.client.getRefunds('smoke-1'), list);
  });
});
