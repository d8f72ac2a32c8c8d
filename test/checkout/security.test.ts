// Security: merchant strings are text, never HTML; non-http(s) URLs are neither linked nor followed;
// the element works under a strict CSP without a single violation; a merchant page on another origin opens a
// payment without a CORS preflight.
import { expect } from '@open-wc/testing';
import type { CheckoutView } from '../../src/contract/index.js';
import type { CspReport } from './helpers/csp-page.js';
import { mount, part, parts, partOf, startPayment, textOf, untilView } from './helpers/element.js';
import { checkoutView, createLink, gatewayUrl, requestsFor, stubCheckout } from './helpers/server.js';

declare global {
  interface Window {
    __pwned?: number;
  }
}

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=1</script>';

/** Every URL-bearing attribute in the element's shadow tree. */
function urlsIn(el: HTMLElement): string[] {
  const found: string[] = [];
  const walk = (root: ParentNode) => {
    for (const node of root.querySelectorAll('*')) {
      for (const name of ['href', 'src', 'srcset', 'action', 'formaction', 'xlink:href']) {
        const value = node.getAttribute(name);
        if (value !== null) found.push(value);
      }
      if (node.shadowRoot) walk(node.shadowRoot);
    }
  };
  walk(el.shadowRoot!);
  return found;
}

describe('<pay-checkout> security', () => {
  beforeEach(() => {
    delete window.__pwned;
  });

  it('renders markup in merchant strings as text', async () => {
    const { payment_link_ref } = await createLink({
      description: IMG,
      merchant_details: { name: IMG, promo_code: SCRIPT, promo_discount: 20_000, shipping_charges: 30_000 },
      order_details: [
        { id: 'sku-1', name: SCRIPT, price: 150_000, quantity: 2 },
        { id: 'sku-2', name: IMG, price: 50_000, quantity: 1 },
      ],
    });
    const { el } = await mount(payment_link_ref, { locale: 'en' });
    await untilView(el, 'order');
    expect(textOf(partOf(el, 'header'))).to.include(IMG);
    const lines = parts(el, 'line').map(textOf);
    expect(lines[0]).to.include(SCRIPT);
    expect(lines[1]).to.include(IMG);
    expect(textOf(partOf(el, 'summary'))).to.include(SCRIPT);
    const shadow = el.shadowRoot!;
    expect(shadow.querySelector('script'), 'no script element').to.equal(null);
    expect(shadow.querySelector('img[src="x"]'), 'no injected image').to.equal(null);
    expect(window.__pwned).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('neither links nor follows javascript: URLs from an API answer', async () => {
    // The gateway refuses such URLs on creation; a stub on the test server's origin answers with them.
    const { payment_link_ref } = await createLink({ show_back_button: true });
    const real = await checkoutView(payment_link_ref);
    const view: CheckoutView = {
      ...real,
      payment_link_ref: `stub_${payment_link_ref}`,
      merchant_details: { ...real.merchant_details, back_url: 'javascript:window.__pwned=2', logo: 'javascript:window.__pwned=3' },
      order_details: real.order_details.map((line) => ({ ...line, image: 'javascript:window.__pwned=4' })),
      failure_redirect_url: 'javascript:window.__pwned=5',
    };
    await stubCheckout(view);
    const { el, events } = await mount(view.payment_link_ref, { locale: 'en', apiBase: location.origin, allowNavigation: true });
    await untilView(el, 'order');
    expect(textOf(partOf(el, 'total'))).to.include('360,000');
    expect(urlsIn(el).filter((url) => !/^https?:/i.test(url)), 'only http(s) URLs in the markup').to.deep.equal([]);
    // A back button may only appear with a URL it can follow; pressed, it must not run the script.
    (part(el, 'back-button') as HTMLElement | undefined)?.click();
    expect(window.__pwned).to.equal(undefined);
    expect(events.filter((e) => e.type === 'pay-checkout-back'), 'no back event to a javascript: URL').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('opens a payment from a page on another origin without a CORS preflight', async () => {
    const { payment_link_ref } = await createLink();
    expect(new URL(await gatewayUrl()).origin, 'the gateway is another origin than this page').not.to.equal(location.origin);
    const { el } = await mount(payment_link_ref, { locale: 'en' });
    await startPayment(el, 'USDT:TRON');
    const requests = await requestsFor(payment_link_ref);
    expect(requests.filter((line) => line.startsWith('OPTIONS ')), 'no preflight reached the gateway').to.deep.equal([]);
    expect(requests).to.include(`POST /api/checkout/${payment_link_ref}/payments`);
  });

  it('reaches the order view under a strict CSP without a violation', async () => {
    const { payment_link_ref } = await createLink();
    const frame = document.createElement('iframe');
    frame.title = 'Checkout under a strict Content-Security-Policy';
    const reports: CspReport[] = [];
    const order = new Promise<CspReport>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the CSP page never showed the order; it reported ${JSON.stringify(reports.at(-1))}`)), 15_000);
      window.addEventListener('message', function listen(event: MessageEvent<CspReport>) {
        if (event.source !== frame.contentWindow) return;
        reports.push(event.data);
        if (event.data.view !== 'order') return;
        clearTimeout(timer);
        window.removeEventListener('message', listen);
        resolve(event.data);
      });
    });
    frame.src = `${await gatewayUrl()}/__test/csp.html?ref=${encodeURIComponent(payment_link_ref)}`;
    document.body.append(frame);
    try {
      const shown = await order;
      expect(shown.total).to.match(/360[.,]000/);
      expect(shown.violations).to.deep.equal([]);
      // The element lives in the cross-origin frame: axe checks the page that holds it.
      await expect(frame).to.be.accessible();
    } finally {
      frame.remove();
    }
  });
});
