// The test bed itself: the gateway plugin's commands and the checkout API, seen from each engine.
import { expect } from '@open-wc/testing';
import { checkoutView, createLink, gatewayUrl, mine, openPayment, pay, payment } from './helpers/server.js';

describe('browser test bed', () => {
  it('creates a signed link on the gateway and reads its checkout view across origins', async () => {
    const { payment_link_ref, payment_link } = await createLink({ merchant_details: { name: 'Test bed shop', promo_discount: 20_000, shipping_charges: 30_000 } });
    expect(payment_link).to.equal(`${await gatewayUrl()}/checkout?ref=${payment_link_ref}`);
    const view = await checkoutView(payment_link_ref);
    expect(view.payment_link_ref).to.equal(payment_link_ref);
    expect(view.status).to.equal('active');
    expect(view.amount).to.equal(360_000);
    expect(view.currency).to.equal('VND');
    expect(view.merchant_details.name).to.equal('Test bed shop');
    expect(view.order_details.map((l) => l.name)).to.deep.equal(['Cà phê hạt 500 g', 'Phin nhôm']);
    expect(view.payment).to.equal(null);
    expect(view.sandbox).to.equal(true);
    expect(view.methods[0]!.assets.map((a) => `${a.asset}:${a.network}`)).to.include('USDT:TRON');
    expect(JSON.stringify(view)).not.to.include('svc_key');
  });

  it('pays a payment from the test wallet and confirms it by mining', async () => {
    const { payment_link_ref } = await createLink();
    const opened = await openPayment(payment_link_ref, 'USDT', 'TRON');
    expect(opened.status).to.equal('awaiting_payment');
    await pay(opened.address, 'USDT', 'TRON', opened.amount_crypto);
    await mine(opened.confirmations_required, 'TRON');
    const paid = await payment(payment_link_ref, opened.payment_id);
    expect(paid.status).to.equal('paid');
    expect(paid.success_redirect_url).to.match(/^https:\/\/shop\.example\/success\?/);
  });
});
