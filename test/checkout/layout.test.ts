// Where the card sits and how it looks: without `embedded` it is the embedded card from the
// first frame (no h1, no full-page slab) and fits a 320 px column; embedded, it follows the page's theme, not the
// system's; on a phone the total and the Pay button are on the first screen, and after Pay the payment is in view.
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { create, mount, part, partOf, press, startPayment, textFonts, until, untilView, viewOf } from './helpers/element.js';
import { onPhone } from './helpers/phone.js';
import { createLink } from './helpers/server.js';

/** A phone's first screen, as issue reports measure it: 390 × 844 CSS pixels. */
const PHONE = { width: 390, height: 844 };

/** The smallest phone the card is drawn for: 320 × 568 CSS pixels. */
const SMALL_PHONE = { width: 320, height: 568 };

/** Lines a text is laid out in, by the distinct tops of its characters' boxes. */
function linesOf(node: Node): string[] {
  const range = document.createRange();
  const lines = new Map<number, string>();
  for (const child of walkText(node)) {
    const value = child.textContent ?? '';
    for (let i = 0; i < value.length; i++) {
      range.setStart(child, i);
      range.setEnd(child, i + 1);
      const box = range.getClientRects()[0];
      if (box && box.width > 0) {
        const top = Math.round(box.top);
        lines.set(top, (lines.get(top) ?? '') + value[i]);
      }
    }
  }
  return [...lines.entries()].sort(([a], [b]) => a - b).map(([, line]) => line.trim());
}

function* walkText(node: Node): Generator<Node> {
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) yield child;
    else yield* walkText(child);
  }
}

/** Places `el` in a column `width` px wide, at the top of the page. */
async function inColumn(el: HTMLElement, width: number): Promise<HTMLElement> {
  return fixture<HTMLElement>(html`<div style="width:${width}px">${el}</div>`);
}

function expectFits(el: HTMLElement, width: number, where: string): void {
  const card = partOf(el, 'card');
  expect(el.getBoundingClientRect().width, `${where}: the element's width`).to.be.at.most(width);
  expect(card.scrollWidth, `${where}: nothing wider than the card`).to.be.at.most(card.clientWidth);
  expect(el.shadowRoot!.querySelectorAll('h1').length, `${where}: no h1 of its own in the shop's page`).to.equal(0);
  // The loading card is as tall as the order it stands for (its skeleton): what it must not be is the hosted page.
  expect(el.shadowRoot!.querySelector('.page'), `${where}: a card, not the full-page layout`).to.equal(null);
}

/** The demo's order: three lines, promo, shipping charges, shipping details shown. */
const DEMO_ORDER = {
  description: 'Cà phê Buôn Ma Thuột, phin nhôm và trà sen Tây Hồ',
  order_details: [
    { id: 'CF-BMT-500', name: 'Cà phê Robusta Buôn Ma Thuột 500 g', price: 185_000, quantity: 2 },
    { id: 'PHIN-AL', name: 'Phin nhôm pha cà phê', price: 45_000, quantity: 1 },
    { id: 'TRA-SEN-100', name: 'Trà sen Tây Hồ 100 g', price: 120_000, quantity: 1 },
  ],
  amount: 545_000,
  show_shipping_details: true,
  shipping_details: {
    shipping_name: 'Trần Văn Minh',
    shipping_email: 'minh.tran@example.com',
    shipping_phone: '+84 903 123 456',
    shipping_address: { line_1: '18 Nguyễn Huệ', line_2: 'Phường Bến Nghé', city: 'TP. Hồ Chí Minh', state: 'Quận 1', postal_code: '700000', country_code: 'VN' },
  },
};

/** The type scale (pay-checkout.styles.ts) at the default 16 px root: small, body, large, the amount to pay. */
const SIZES = ['14px', '16px', '18px', '22px'];
const WEIGHTS = ['400', '600'];

describe('<pay-checkout> layout', () => {
  it('without an embedded attribute, draws the card, fitting a 320 px column while loading and on error', async () => {
    const loading = await create('slow_loading', { locale: 'vi', apiBase: location.origin });
    await inColumn(loading.el, 320);
    await untilView(loading.el, 'loading');
    expectFits(loading.el, 320, 'loading');
    await expect(loading.el).to.be.accessible();

    const missing = await create('plk_does_not_exist', { locale: 'vi' });
    await inColumn(missing.el, 320);
    await untilView(missing.el, 'error');
    expectFits(missing.el, 320, 'error');
  });

  it('fits the order in a 320 px column', async () => {
    const { payment_link_ref } = await createLink();
    const { el } = await create(payment_link_ref, { locale: 'vi' });
    await inColumn(el, 320);
    await untilView(el, 'order');
    const card = partOf(el, 'card');
    expect(card.scrollWidth).to.be.at.most(card.clientWidth);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
  });

  it("embedded, follows the page's theme rather than the system's dark mode; hosted, follows the system", async () => {
    // Firefox and WebKitGTK run with a dark system (web-test-runner.config.mjs); Chromium emulates one.
    const emulated = !matchMedia('(prefers-color-scheme: dark)').matches;
    if (emulated) await emulateMedia({ colorScheme: 'dark' });
    try {
      expect(matchMedia('(prefers-color-scheme: dark)').matches, 'the system is dark').to.equal(true);
      const { payment_link_ref } = await createLink();
      const embedded = await mount(payment_link_ref, { locale: 'en', embedded: true });
      await untilView(embedded.el, 'order');
      const light = getComputedStyle(partOf(embedded.el, 'card')).backgroundColor;
      expect(light, 'embedded: the light card').to.equal('rgb(255, 255, 255)');
      await expect(embedded.el).to.be.accessible();

      embedded.el.setAttribute('theme', 'dark');
      await untilView(embedded.el, 'order');
      await new Promise(requestAnimationFrame);
      expect(getComputedStyle(partOf(embedded.el, 'card')).backgroundColor, 'theme="dark" asks for dark').not.to.equal(light);

      const hosted = await create(payment_link_ref, { locale: 'en' });
      hosted.el.setAttribute('embedded', 'false');
      await fixture(hosted.el);
      await untilView(hosted.el, 'order');
      expect(getComputedStyle(partOf(hosted.el, 'card')).backgroundColor, 'hosted: the system theme').not.to.equal(light);
      await expect(hosted.el).to.be.accessible();
    } finally {
      if (emulated) await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('puts the total and the Pay button on the first screen of a phone, hosted', async () => {
    const { payment_link_ref } = await createLink(DEMO_ORDER);
    const el = await onPhone(payment_link_ref, PHONE);
    await untilView(el, 'order');
    const bottomOf = (name: string) => partOf(el, name).getBoundingClientRect().bottom;
    expect(bottomOf('total'), 'the total').to.be.at.most(PHONE.height);
    expect(bottomOf('pay-button'), 'the Pay button').to.be.at.most(PHONE.height);
    expect(part(el, 'methods')?.querySelectorAll('input[name="method"]').length, 'no choice of one method').to.equal(0);
  });

  it('puts the total and the Pay button on the first screen of a phone, embedded in a plain merchant page', async () => {
    const { payment_link_ref } = await createLink(DEMO_ORDER);
    const el = await onPhone(payment_link_ref, PHONE, 'embedded');
    await untilView(el, 'order');
    const bottomOf = (name: string) => partOf(el, name).getBoundingClientRect().bottom;
    expect(bottomOf('total'), 'the total').to.be.at.most(PHONE.height);
    expect(bottomOf('pay-button'), 'the Pay button').to.be.at.most(PHONE.height);
  });

  for (const screen of [{ width: 360, height: 740 }, { width: 800, height: 1000 }]) {
    it(`embedded in a ${screen.width} px window, takes the order's place at once: the skeleton is the demo order's height, within 8%`, async () => {
      // The frame's load event comes after its module script has run, and with it the element's first frame.
      const waiting = await onPhone('slow_loading', screen, 'embedded', 'vi', location.origin);
      const skeleton = waiting.getBoundingClientRect().height;
      expect(viewOf(waiting), 'no view yet: the skeleton alone').to.equal(null);
      await untilView(waiting, 'loading');
      expect(waiting.getBoundingClientRect().height, 'the loading view, on the same skeleton').to.equal(skeleton);
      const { payment_link_ref } = await createLink(DEMO_ORDER);
      const el = await onPhone(payment_link_ref, screen, 'embedded');
      await untilView(el, 'order');
      const order = el.getBoundingClientRect().height;
      // Each engine lays the order's text out with its own fonts (at 360 px: 804 px in Chromium, 868 px in Firefox and
      // WebKitGTK), which the skeleton, drawn before any text, cannot know; the spinner's card before it was 28% short.
      expect(Math.abs(skeleton - order) / order, `the skeleton ${skeleton} px, the order ${order} px`).to.be.at.most(0.08);
    });
  }

  for (const [layout, screen] of [['hosted', SMALL_PHONE], ['embedded', SMALL_PHONE], ['embedded', PHONE], ['embedded', { width: 360, height: 740 }]] as const) {
    it(`keeps the total on the first screen of a ${screen.width} × ${screen.height} phone, ${layout}, and clips no coin name`, async () => {
      const { payment_link_ref } = await createLink(DEMO_ORDER);
      const el = await onPhone(payment_link_ref, screen, layout);
      await untilView(el, 'order');
      expect(partOf(el, 'total').getBoundingClientRect().bottom, 'the total').to.be.at.most(screen.height);
      for (const option of el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="asset-option"]')) {
        const name = option.querySelector<HTMLElement>('.asset-name')!;
        const box = option.getBoundingClientRect();
        const text = name.getBoundingClientRect();
        expect(text.right, `${name.textContent}: inside its card`).to.be.at.most(box.right);
        expect(name.scrollWidth, `${name.textContent}: not cut`).to.be.at.most(name.clientWidth + 1);
        expect(linesOf(name), `${name.textContent}: on one line`).to.have.length(1);
      }
    });
  }

  it('never leaves the ₫ sign alone on a line, nor a few characters of an address, in a 320 px embed', async () => {
    const { payment_link_ref } = await createLink(DEMO_ORDER);
    const el = await onPhone(payment_link_ref, SMALL_PHONE, 'embedded');
    await startPayment(el, 'USDT:ETHEREUM');
    for (const node of el.shadowRoot!.querySelectorAll('*')) {
      if (!/₫/.test(node.textContent ?? '') || node.children.length) continue;
      for (const line of linesOf(node)) expect(line, `"${node.textContent}" wraps the sign alone`).to.not.match(/^₫$/);
    }
    const address = linesOf(partOf(el, 'address'));
    expect(address.length, 'the address in few lines').to.be.at.most(3);
    for (const line of address.slice(1)) expect(line.length, `a line of the address: ${address.join(' | ')}`).to.be.at.least(8);
  });

  it('lays its text out in one type scale: the order in four fonts at most, since each is a lookup before its first frame', async () => {
    const { payment_link_ref } = await createLink(DEMO_ORDER);
    const { el } = await mount(payment_link_ref, { locale: 'vi', embedded: true });
    await untilView(el, 'order');
    const order = textFonts(el);
    await startPayment(el, 'USDT:TRON');
    const payment = textFonts(el);
    for (const font of [...order, ...payment]) {
      const [size, weight] = font.split(' ');
      expect(SIZES, `${font}: a size of the scale`).to.include(size);
      expect(WEIGHTS, `${font}: a weight of the scale`).to.include(weight);
    }
    expect([...order], 'the order view').to.have.length.at.most(4);
  });

  it('brings the payment into view after Pay', async () => {
    const { payment_link_ref } = await createLink();
    const { el } = await create(payment_link_ref, { locale: 'vi', embedded: true });
    // A shop page with a tall header: the customer scrolled down to the Pay button.
    await fixture(html`<div><div style="height:1500px"></div>${el}<div style="height:1500px"></div></div>`);
    await untilView(el, 'order');
    partOf(el, 'pay-button').scrollIntoView({ block: 'end' });
    press(el, 'pay-button');
    await untilView(el, 'payment');
    const headingTop = () => el.shadowRoot!.querySelector('h2')!.getBoundingClientRect().top;
    await until(el, 'the heading back on the screen', () => headingTop() >= 0);
    const qr = partOf(el, 'qr').getBoundingClientRect();
    expect(qr.top, 'the QR starts on the screen').to.be.lessThan(window.innerHeight);
    expect(qr.bottom, 'the whole QR is on the screen').to.be.at.most(window.innerHeight);
  });
});
