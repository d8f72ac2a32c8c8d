// Several checkouts on one page, and a page that loads the element's definition twice.
import { expect, fixture, html } from '@open-wc/testing';
import { create, startPayment, textOf, partOf, untilView, viewOf, amountCrypto, addressOf } from './helpers/element.js';
import { createLink, pay } from './helpers/server.js';

describe('<pay-checkout> instances', () => {
  it('runs two embedded checkouts side by side, each following its own link', async () => {
    const one = await createLink();
    const two = await createLink({ amount: 410_000, order_details: [{ id: 'sku-9', name: 'Trà sen', price: 200_000, quantity: 2 }] });
    const a = await create(one.payment_link_ref, { locale: 'en', embedded: true });
    const b = await create(two.payment_link_ref, { locale: 'en', embedded: true });
    const page = await fixture<HTMLElement>(html`<main><h1>Two shops</h1>${a.el}${b.el}</main>`);
    await untilView(a.el, 'order');
    await untilView(b.el, 'order');
    expect(textOf(partOf(a.el, 'total'))).to.include('360,000');
    expect(textOf(partOf(b.el, 'total'))).to.include('410,000');

    await startPayment(a.el, 'USDT:TRON');
    await pay(addressOf(a.el)!, 'USDT', 'TRON', amountCrypto(a.el)!);
    await untilView(a.el, 'confirming');
    expect(viewOf(b.el), 'the other checkout is untouched').to.equal('order');
    expect(a.events.filter((e) => e.type === 'pay-checkout-ready')).to.have.length(1);
    expect(b.events.filter((e) => e.type === 'pay-checkout-status')).to.deep.equal([]);
    await expect(page).to.be.accessible();
  });

  it('survives its definition loaded a second time', async () => {
    const defined = customElements.get('pay-checkout');
    expect(defined, 'defined by the first load').to.be.a('function');
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      // Another URL is another module instance: the entry runs again, as a second <script> would.
      await import(new URL('../../src/checkout/define.ts?second-copy', import.meta.url).href);
    } finally {
      console.warn = warn;
    }
    expect(customElements.get('pay-checkout')).to.equal(defined);
    expect(warnings.map((args) => String(args[0])).join('\n')).to.match(/already defined/);
  });
});
