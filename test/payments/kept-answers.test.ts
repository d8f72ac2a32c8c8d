// The checkout view and the refund listing are kept with the facts they were derived from (services/derived-answers.ts).
// Each way a kept answer could go wrong is tried here: time passing with nothing written, new facts, a new secret.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyRedirect } from '../../src/merchant/index.js';
import { DerivedAnswers } from '../../src/sandbox/services/payments/derived-answers.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe('DerivedAnswers', () => {
  it('answers only for the very facts it was given, inside the window, and forgets the oldest key when full', () => {
    const kept = new DerivedAnswers<string>(2);
    kept.set('a', '{"n":1}', 'A', { from: 100, until: 200 });
    assert.equal(kept.get('a', '{"n":1}', 100), 'A');
    assert.equal(kept.get('a', '{"n":1}', 199), 'A');
    assert.equal(kept.get('a', '{"n":1}', 200), undefined, 'the window has ended');
    assert.equal(kept.get('a', '{"n":1}', 99), undefined, 'before it was derived');
    assert.equal(kept.get('a', '{"n":2}', 150), undefined, 'other facts');
    kept.set('b', 'b', 'B', { from: 0, until: Infinity });
    kept.set('a', 'a2', 'A2', { from: 0, until: Infinity });
    kept.set('c', 'c', 'C', { from: 0, until: Infinity });
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => kept.get(key, key === 'a' ? 'a2' : key, 1)),
      ['A2', undefined, 'C'],
      'b was kept longest: a was set again after it',
    );
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => kept.last(key)),
      ['A2', undefined, 'C'],
      'the last answer kept for a key, whatever its facts and window',
    );
  });
});

describe(`answers kept with their facts (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  async function newLink(description?: string) {
    const input = sampleLink(description ? { description } : {});
    const link = await gw.client.createPaymentLink(input);
    return { ...link, orderId: input.merchant_order_id, checkout: checkoutApi(gw.url, link.payment_link_ref) };
  }
  const untilQuoteEnds = (instant: string) => gw.clock.advance(Date.parse(instant) - gw.clock.now().getTime());

  it('shows a quote as expired once its time is up, though nothing was written since the view was last served', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    for (let i = 0; i < 2; i++) assert.equal((await checkout.view()).body.payment?.status, 'awaiting_payment');
    untilQuoteEnds(payment.quote_expires_at);
    assert.equal((await checkout.view()).body.payment?.status, 'expired');
  });

  it('shows each new transfer and block in the view', async () => {
    const { checkout } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    assert.equal((await checkout.view()).body.payment?.received_crypto, '0');
    await sandboxApi(gw.url).transfer(payment.address, 'USDT', 'TRON', '5');
    assert.deepEqual((await checkout.view()).body.payment?.transactions.map((t) => t.confirmations), [0]);
    await sandboxApi(gw.url).mine(2, 'TRON');
    const { body } = await checkout.view();
    assert.deepEqual([body.payment?.received_crypto, body.payment?.transactions.map((t) => t.confirmations)], ['5', [2]]);
  });

  it('shows each link’s own order as its facts change', async () => {
    const [a, b] = [await newLink('Đơn A'), await newLink('Đơn B')];
    const descriptions = async () => [(await a.checkout.view()).body.description, (await b.checkout.view()).body.description];
    assert.deepEqual(await descriptions(), ['Đơn A', 'Đơn B']);
    await a.checkout.open('USDT', 'TRON');
    await b.checkout.open('BTC', 'BITCOIN');
    assert.deepEqual(await descriptions(), ['Đơn A', 'Đơn B']);
  });

  it('lists what is left to refund once a partial payment’s link is over, though nothing was written', async () => {
    const { checkout, orderId, payment_link_ref: ref } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await sandboxApi(gw.url).transfer(payment.address, 'USDT', 'TRON', '5');
    await sandboxApi(gw.url).mine(payment.confirmations_required, 'TRON');
    for (let i = 0; i < 2; i++) assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 0, 'the quote is still open');
    untilQuoteEnds(payment.quote_expires_at);
    for (let i = 0; i < 2; i++) assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, 0, 'credited: the link may still be paid');
    untilQuoteEnds((await checkout.view()).body.expires_at);
    const { amountToRefund } = await gw.client.getRefunds(orderId);
    assert.ok(amountToRefund > 0, 'the 5 USDT are held for the merchant');
    assert.equal(amountToRefund, (await gw.client.getPaymentLink(ref)).amountToRefund);
  });

  it('signs the redirect with the merchant’s new client secret once it has changed', async () => {
    const { checkout } = await newLink();
    const signedBy = async (secret: string) => (await verifyRedirect((await checkout.view()).body.failure_redirect_url, secret))?.status;
    assert.equal(await signedBy(gw.credentials.clientSecret), 'cancelled');
    const rotated = { ...gw.credentials, clientSecret: `${gw.credentials.clientSecret}-rotated` };
    await gw.gateway.merchants.upsert(rotated);
    try {
      assert.equal(await signedBy(rotated.clientSecret), 'cancelled');
    } finally {
      await gw.gateway.merchants.upsert(gw.credentials);
    }
  });
});
