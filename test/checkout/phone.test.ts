// The customer paying from an exchange app on their phone: at 320 and 360 px wide, in both languages, the
// first screen of the payment view holds the amount, the network chip and the address with their copy buttons, the QR
// after them; every control of the view is a tap target of at least 44 × 44 px; the heading does not ask the phone to
// scan itself. On a desktop the QR comes first.
import { expect } from '@open-wc/testing';
import { part, partOf, startPayment, textOf, until } from './helpers/element.js';
import { onPhone, type Screen } from './helpers/phone.js';
import { createLink } from './helpers/server.js';

/** What a customer can tap or focus, anywhere in the element's shadow tree. */
const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

function* deep(root: ParentNode): Generator<Element> {
  for (const node of root.querySelectorAll('*')) {
    yield node;
    if (node.shadowRoot) yield* deep(node.shadowRoot);
  }
}

/** Each rendered control smaller than 44 × 44 CSS px, with its size. */
function smallTargets(el: HTMLElement): string[] {
  return [...deep(el.shadowRoot!)]
    .filter((node) => node.matches(INTERACTIVE) && node.getClientRects().length > 0)
    .map((node) => [node, node.getBoundingClientRect()] as const)
    .filter(([, box]) => box.width < 44 || box.height < 44)
    .map(([node, box]) => `${node.getAttribute('part') ?? node.localName} "${textOf(node)}" ${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
}

const FIRST_SCREEN = ['amount-crypto', 'copy-amount', 'network-chip', 'address', 'copy-address'];

for (const width of [320, 360]) {
  for (const locale of ['vi', 'en'] as const) {
    const screen: Screen = { width, height: 640 };
    describe(`<pay-checkout> on a ${width} × ${screen.height} phone, ${locale}`, () => {
      it('holds the amount, the network chip and the address with their copy buttons in the first screen, the QR after them', async () => {
        const { payment_link_ref } = await createLink();
        const el = await onPhone(payment_link_ref, screen, 'hosted', locale);
        await startPayment(el, 'USDT:TRON');
        const viewport = el.ownerDocument.defaultView!;
        for (const name of FIRST_SCREEN) {
          const box = partOf(el, name).getBoundingClientRect();
          expect(box.top, `${name}: top`).to.be.at.least(0);
          expect(box.bottom, `${name}: within the first screen (${viewport.innerHeight} px)`).to.be.at.most(viewport.innerHeight);
        }
        expect(partOf(el, 'qr').getBoundingClientRect().top, 'the QR after the address').to.be.at.least(partOf(el, 'copy-address').getBoundingClientRect().bottom);
        const chip = textOf(partOf(el, 'network-chip'));
        expect(chip, 'the chip: the network by its name, with its token standard').to.match(locale === 'vi' ? /^Mạng .*TRON.* \(TRC-20\)$/ : /^TRON.* network \(TRC-20\)$/);
        expect(partOf(el, 'network-warning').getBoundingClientRect().top, 'the warning beside the chip').to.be.at.most(partOf(el, 'address').getBoundingClientRect().top);
        const title = (el.shadowRoot!.querySelector('h2') as HTMLElement).innerText.trim();
        expect(title, 'a heading for the phone').to.equal(locale === 'vi' ? 'Thanh toán từ ứng dụng ví' : 'Pay from your wallet app');
        expect(part(el, 'wallet-link'), 'no wallet link no app opens (tron:)').to.equal(undefined);
        // "I pay from an exchange" comes with its chunk: its disclosure is a control like the others.
        await until(el, '"I pay from an exchange"', () => !!part(el, 'from-exchange'));
        expect(smallTargets(el), 'controls under 44 × 44 px').to.deep.equal([]);
        // (axe runs in the test's own document only: the payment view's accessibility is payment.test.ts's.)
        const card = partOf(el, 'card');
        expect(card.scrollWidth, 'nothing wider than the card').to.be.at.most(card.clientWidth);
      });
    });
  }
}

describe('<pay-checkout> on a desktop', () => {
  it('puts the QR first, under a heading that says to scan it', async () => {
    const { payment_link_ref } = await createLink();
    const el = await onPhone(payment_link_ref, { width: 800, height: 900 }, 'hosted', 'en');
    await startPayment(el, 'USDT:TRON');
    expect(partOf(el, 'qr').getBoundingClientRect().bottom, 'the QR before the amount').to.be.at.most(partOf(el, 'amount-crypto').getBoundingClientRect().top);
    expect((el.shadowRoot!.querySelector('h2') as HTMLElement).innerText.trim()).to.equal('Scan the address, then type the amount');
    expect(smallTargets(el), 'controls under 44 × 44 px').to.deep.equal([]);
  });
});
