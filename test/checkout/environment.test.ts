// The sandbox's mark: a view whose environment is `sandbox` says its coins are test coins ("Sandbox: test coins only",
// and in Vietnamese), on the hosted page's layout and in an embedded card; a live view never shows it, fetched or
// carried in the page as the hosted page carries it.
import { expect, fixture } from '@open-wc/testing';
import type { CheckoutView } from '../../src/contract/index.js';
import { create, mount, part, partOf, textOf, untilView } from './helpers/element.js';
import { checkoutView, createLink, stubCheckout } from './helpers/server.js';

const MARK = { en: 'Sandbox: test coins only', vi: 'Thử nghiệm: chỉ dùng tiền thử' } as const;

/** This engine's sandbox view of a new link, as a live gateway would answer it, served by the test server. */
async function liveView(): Promise<CheckoutView> {
  const { payment_link_ref } = await createLink();
  const view: CheckoutView = { ...(await checkoutView(payment_link_ref)), payment_link_ref: `live_${payment_link_ref}`, environment: 'live', sandbox: false };
  await stubCheckout(view);
  return view;
}

describe('<pay-checkout> environment', () => {
  for (const locale of ['en', 'vi'] as const) {
    for (const embedded of [false, true]) {
      const layout = embedded ? 'an embedded card' : "the hosted page's layout";
      it(`marks the sandbox's coins as test coins in ${layout} (${locale})`, async () => {
        const { payment_link_ref } = await createLink();
        expect((await checkoutView(payment_link_ref)).environment).to.equal('sandbox');
        const { el } = await mount(payment_link_ref, { locale, embedded });
        await untilView(el, 'order');
        expect(textOf(part(el, 'badge'))).to.equal(MARK[locale]);
        expect(textOf(partOf(el, 'header'))).to.include(MARK[locale]);
        await expect(el).to.be.accessible();
      });

      it(`shows no mark on a live view in ${layout} (${locale})`, async () => {
        const view = await liveView();
        const { el } = await mount(view.payment_link_ref, { locale, embedded, apiBase: location.origin });
        await untilView(el, 'order');
        expect(textOf(partOf(el, 'header'))).to.include('Cà Phê Sữa Đá');
        expect(part(el, 'badge'), 'no sandbox badge').to.equal(undefined);
        expect(textOf(partOf(el, 'header'))).not.to.include(MARK[locale]);
        await expect(el).to.be.accessible();
      });
    }

    it(`shows no mark on a live view carried in the page, as the hosted page carries it (${locale})`, async () => {
      const view = await liveView();
      const { el } = await create(view.payment_link_ref, { locale, apiBase: location.origin });
      el.append(Object.assign(document.createElement('script'), { type: 'application/json', textContent: JSON.stringify(view) }));
      await fixture(el);
      await untilView(el, 'order');
      expect(part(el, 'badge'), 'no sandbox badge').to.equal(undefined);
      expect(textOf(partOf(el, 'header'))).to.include('Cà Phê Sữa Đá').and.not.include(MARK[locale]);
    });
  }
});
