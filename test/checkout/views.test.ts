// Acceptance of the element's views: each reached through the real checkout API of this engine's gateway.
import { expect, fixture } from '@open-wc/testing';
import { LOADING_DELAY_MS, REDIRECT_SECONDS } from '../../src/checkout/index.js';
import { control, create, mount, orderCheckout, part, parts, partOf, press, textOf, until, untilView, viewOf, type RecordedEvent } from './helpers/element.js';
import { advanceClock, cancelLink, checkoutView, createLink, startGateway, stopGateway } from './helpers/server.js';

const HOUR = 3_600_000;

/** The failure event the element sends when it goes back to the merchant after its countdown: why, and where to. */
async function failureEvent(el: HTMLElement, events: RecordedEvent[]) {
  await until(el, 'the failure event', () => events.some((e) => e.type === 'pay-checkout-failure'), (REDIRECT_SECONDS + 5) * 1000);
  return events.find((e) => e.type === 'pay-checkout-failure')!.detail as { reason: string; url: string };
}

describe('<pay-checkout> order view', () => {
  it('draws the order as its first content, with lines, subtotal, promo, shipping and total in VND (vi)', async () => {
    const { payment_link_ref } = await createLink();
    const { el, events } = await create(payment_link_ref, { locale: 'vi' });
    const drawn: (string | null)[] = [];
    const started = performance.now();
    await fixture(el);
    // The first render comes before the gateway can have answered: it draws nothing yet.
    expect(viewOf(el), 'nothing drawn before the answer').to.equal(null);
    const seen = new MutationObserver(() => drawn.push(viewOf(el)));
    seen.observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-view'] });
    await untilView(el, 'order');
    seen.disconnect();
    // On a machine too busy to answer within the delay, the loading view may rightly come first.
    if (performance.now() - started < LOADING_DELAY_MS) expect(drawn, 'no loading view before a prompt answer').not.to.include('loading');

    expect(textOf(partOf(el, 'header'))).to.include('Cà Phê Sữa Đá');
    expect(part(el, 'badge'), 'the sandbox badge').to.be.instanceOf(Element);
    const lines = parts(el, 'line').map(textOf);
    expect(lines).to.have.length(2);
    expect(lines[0]).to.include('Cà phê hạt 500 g').and.include('2').and.include('150.000');
    expect(lines[1]).to.include('Phin nhôm').and.include('50.000');
    const summary = textOf(partOf(el, 'summary'));
    expect(summary, 'subtotal').to.include('350.000');
    expect(summary, 'promo').to.include('TET2026').and.include('20.000');
    expect(summary, 'shipping charges').to.include('30.000');
    expect(textOf(partOf(el, 'total'))).to.match(/360\.000\s*(₫|VND|đ)/);
    expect(events.find((e) => e.type === 'pay-checkout-ready')?.detail).to.have.nested.property('view.payment_link_ref', payment_link_ref);
    await expect(el).to.be.accessible();
  });

  it('draws the order in its first frame from the view the page carries inside it, and fetches nothing', async () => {
    const { payment_link_ref } = await createLink();
    const view = { ...(await checkoutView(payment_link_ref)), description: 'Carried by the page' };
    const requested: string[] = [];
    const fetch = window.fetch;
    window.fetch = (input, init) => {
      requested.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    try {
      const { el, events } = await create(payment_link_ref, { locale: 'en' });
      el.append(Object.assign(document.createElement('script'), { type: 'application/json', textContent: JSON.stringify(view) }));
      await fixture(el);
      expect(viewOf(el), 'the first render').to.equal('order');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(textOf(partOf(el, 'summary'))).to.include('Carried by the page');
      expect(requested.filter((url) => url.includes('/api/checkout/')), 'no request for the view').to.deep.equal([]);
      expect(events.map((e) => e.type)).to.deep.equal(['pay-checkout-ready']);
    } finally {
      window.fetch = fetch;
    }
  });

  it("fetches its own view when the one the page carries is another link's or breaks the contract", async () => {
    const { payment_link_ref } = await createLink();
    const other = await checkoutView((await createLink()).payment_link_ref);
    for (const carried of [{ ...other, description: 'Another link' }, { ...other, payment_link_ref, amount: '360000', description: 'Broken' }]) {
      const { el } = await create(payment_link_ref, { locale: 'en' });
      el.append(Object.assign(document.createElement('script'), { type: 'application/json', textContent: JSON.stringify(carried) }));
      await fixture(el);
      expect(viewOf(el), 'the carried view is not drawn').to.equal(null);
      await untilView(el, 'order');
      expect(textOf(partOf(el, 'summary'))).not.to.include(carried.description);
    }
  });

  it("takes the language of the link's billing address when no locale is set", async () => {
    const vi = await createLink();
    const { el } = await mount(vi.payment_link_ref);
    await untilView(el, 'order');
    expect(textOf(partOf(el, 'total'))).to.include('360.000');
    expect(partOf(el, 'card').closest('[lang]')?.getAttribute('lang')).to.equal('vi');
    await expect(el).to.be.accessible();
  });

  it('formats the total for English', async () => {
    const { el } = await orderCheckout({ locale: 'en' });
    expect(textOf(partOf(el, 'total'))).to.match(/(₫|VND)\s*360,000|360,000\s*(₫|VND)/);
    expect(textOf(partOf(el, 'summary'))).to.include('350,000');
    await expect(el).to.be.accessible();
  });

  const shipping_details = {
    shipping_name: 'Trần Thị Bình',
    shipping_address: { line_1: '45 Lý Thường Kiệt', city: 'Đà Nẵng', country_code: 'VN' },
  };

  it('shows the shipping block when show_shipping_details is set', async () => {
    const { el } = await orderCheckout({ locale: 'vi', link: { show_shipping_details: true, shipping_details } });
    expect(textOf(partOf(el, 'shipping'))).to.include('Trần Thị Bình').and.include('45 Lý Thường Kiệt');
    await expect(el).to.be.accessible();
  });

  it('hides the shipping block when show_shipping_details is not set', async () => {
    const { el } = await orderCheckout({ locale: 'vi', link: { show_shipping_details: false, shipping_details } });
    expect(part(el, 'shipping')).to.equal(undefined);
    expect(textOf(partOf(el, 'card'))).not.to.include('Trần Thị Bình');
    await expect(el).to.be.accessible();
  });

  const merchant_details = { name: 'Cà Phê Sữa Đá', back_url: 'https://shop.example/cart', promo_discount: 20_000, shipping_charges: 30_000 };

  it('shows a back button to back_url when show_back_button is set', async () => {
    const { el, events } = await orderCheckout({ locale: 'en', link: { show_back_button: true, merchant_details } });
    press(el, 'back-button');
    expect(events.find((e) => e.type === 'pay-checkout-back')?.detail).to.have.property('url', merchant_details.back_url);
    await expect(el).to.be.accessible();
  });

  it('shows no back button when show_back_button is not set', async () => {
    const { el } = await orderCheckout({ locale: 'en', link: { show_back_button: false, merchant_details } });
    expect(part(el, 'back-button')).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('opens the guest contact form when default_guest_checkout is set', async () => {
    const { el } = await orderCheckout({ locale: 'en', link: { default_guest_checkout: true } });
    const contact = partOf(el, 'contact');
    for (const name of ['name', 'email', 'phone']) expect(contact.querySelector(`input[name="${name}"]`), `guest input ${name}`).to.be.instanceOf(Element);
    await expect(el).to.be.accessible();
  });

  it('otherwise shows the billing contact, editable', async () => {
    const { el } = await orderCheckout({ locale: 'en', link: { default_guest_checkout: false } });
    const contact = partOf(el, 'contact');
    expect(textOf(contact)).to.include('Nguyễn Văn An').and.include('an@example.com');
    expect(contact.querySelector('input[name="email"]'), 'no form before Edit').to.equal(null);
    const edit = [...contact.querySelectorAll('button')].find((b) => /edit/i.test(textOf(b)));
    expect(edit, 'an Edit button').to.be.instanceOf(Element);
    edit!.click();
    await until(el, 'the contact form after Edit', () => !!partOf(el, 'contact').querySelector('input[name="email"]'));
    expect(control(el, 'input[name="email"]').value).to.equal('an@example.com');
    await expect(el).to.be.accessible();
  });
});

describe('<pay-checkout> loading view', () => {
  it(`says it is loading, accessibly, once the gateway has not answered for ${LOADING_DELAY_MS} ms`, async () => {
    const started = performance.now();
    const { el } = await mount('slow_loading', { locale: 'en', apiBase: location.origin });
    expect(viewOf(el), 'nothing drawn at first').to.equal(null);
    await untilView(el, 'loading');
    expect(performance.now() - started, 'not before the delay').to.be.at.least(LOADING_DELAY_MS);
    await expect(el).to.be.accessible();
    expect(viewOf(el), 'still loading after the accessibility check').to.equal('loading');
  });
});

describe('<pay-checkout> error views', () => {
  it('says a link does not exist', async () => {
    const { el, events } = await mount('plk_does_not_exist', { locale: 'en' });
    await untilView(el, 'error');
    expect(textOf(partOf(el, 'error'))).to.match(/not found|no payment link|does not exist/i);
    expect(events.find((e) => e.type === 'pay-checkout-error')?.detail).to.have.property('code', 'not_found');
    await expect(el).to.be.accessible();
  });

  for (const [locale, words] of [
    ['en', 'The shop cancelled this payment link.'],
    ['vi', 'Cửa hàng đã hủy liên kết thanh toán này.'],
  ] as const) {
    it(`says, in ${locale}, that the merchant cancelled the link, then goes back to the signed failure URL`, async () => {
      const { payment_link_ref } = await createLink();
      await cancelLink(payment_link_ref);
      const { el, events } = await mount(payment_link_ref, { locale });
      await untilView(el, 'error');
      expect(textOf(partOf(el, 'card'))).to.include(words);
      expect(part(el, 'pay-button'), 'no way to pay').to.equal(undefined);
      expect(events.find((e) => e.type === 'pay-checkout-error')?.detail).to.have.property('code', 'link_cancelled');
      await expect(el).to.be.accessible();
      const { reason, url } = await failureEvent(el, events);
      expect(reason).to.equal('link_cancelled');
      const query = new URL(url).searchParams;
      expect([query.get('payment_link_ref'), query.get('status')]).to.deep.equal([payment_link_ref, 'cancelled']);
    });
  }

  it('says a link has expired, then goes back to the signed failure URL', async () => {
    const { payment_link_ref } = await createLink({ expiry_hours: 1 });
    await advanceClock(HOUR + 60_000);
    try {
      const { el, events } = await mount(payment_link_ref, { locale: 'en' });
      await untilView(el, 'error');
      expect(textOf(partOf(el, 'card'))).to.match(/expired/i);
      expect(part(el, 'pay-button'), 'no way to pay').to.equal(undefined);
      expect(textOf(partOf(el, 'countdown'))).to.match(/returning to the merchant in \d+ s/i);
      await expect(el).to.be.accessible();
      const { reason, url } = await failureEvent(el, events);
      expect(reason).to.equal('link_expired');
      const query = new URL(url).searchParams;
      expect([query.get('payment_link_ref'), query.get('status')]).to.deep.equal([payment_link_ref, 'expired']);
      expect(query.get('signature')).to.be.a('string');
    } finally {
      // The link stays expired (the gateway stored it); later tests get quotes in step with the browser's clock.
      await advanceClock(-(HOUR + 60_000));
    }
  });

  it('offers a retry when the gateway cannot be reached, and the retry loads the order', async () => {
    const { payment_link_ref } = await createLink();
    await stopGateway();
    let el: HTMLElement;
    try {
      ({ el } = await mount(payment_link_ref, { locale: 'en' }));
      await untilView(el, 'error');
      expect(part(el, 'retry-button'), 'a retry button').to.be.instanceOf(Element);
      await expect(el).to.be.accessible();
    } finally {
      await startGateway();
    }
    press(el, 'retry-button');
    await untilView(el, 'order');
    expect(textOf(partOf(el, 'total'))).to.include('360,000');
    await expect(el).to.be.accessible();
  });
});

describe('<pay-checkout> footer', () => {
  it('says who runs the checkout and where to get help: the merchant, at back_url', async () => {
    const back_url = 'https://shop.example/help';
    const { el } = await orderCheckout({ locale: 'en', embedded: true, link: { merchant_details: { name: 'Cà Phê Sữa Đá', back_url, promo_discount: 20_000, shipping_charges: 30_000 } } });
    expect(textOf(partOf(el, 'footer'))).to.match(/powered by/i).and.include('pay-checkout');
    const help = partOf<HTMLAnchorElement>(el, 'help-link');
    expect(help.getAttribute('href')).to.equal(back_url);
    expect(textOf(help)).to.include('Cà Phê Sữa Đá');
    expect(help.getAttribute('target')).to.equal('_blank');
    expect(help.getAttribute('rel')).to.include('noopener');
    await expect(el).to.be.accessible();

    const bare = await createLink({ merchant_details: { promo_discount: 20_000, shipping_charges: 30_000 } });
    const other = await mount(bare.payment_link_ref, { locale: 'en', embedded: true });
    await untilView(other.el, 'order');
    expect(part(other.el, 'footer') !== undefined, 'the powered-by line stays').to.equal(true);
    expect(part(other.el, 'help-link') === undefined, 'no help link without a URL').to.equal(true);
  });
});
