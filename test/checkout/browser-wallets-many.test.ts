// A page that announces a thousand browser wallets (any script on it can: EIP-6963 is a window event), some of them
// twice: the element keeps a bounded number, one each, shows the first few as buttons and the rest behind a "more"
// disclosure that the keyboard opens, so the QR stays near the top. No wallet is asked anything: the simulated
// gateway's Ethereum is enough for the buttons.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { mount, part, partOf, parts, startPayment, textOf, until } from './helpers/element.js';
import { createLink } from './helpers/server.js';

const ANNOUNCED = 1_000;

/** Answers every discovery request with `ANNOUNCED` wallets, each of the first two once more (same rdns, or same uuid). */
function flood(): () => void {
  const provider = { request: () => Promise.reject(Object.assign(new Error('not in this test'), { code: 4001 })) };
  const wallets = Array.from({ length: ANNOUNCED }, (_, i) => ({ info: { uuid: crypto.randomUUID(), name: `Wallet ${i}`, icon: '', rdns: `test.flood.w${i}` }, provider }));
  const again = [
    { info: { ...wallets[0]!.info, uuid: crypto.randomUUID(), name: 'Wallet 0 again' }, provider },
    { info: { ...wallets[1]!.info, name: 'Wallet 1 again' }, provider },
  ];
  const announce = () => {
    for (const detail of [wallets[0]!, wallets[1]!, ...again, ...wallets.slice(2)]) window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  };
  window.addEventListener('eip6963:requestProvider', announce);
  return () => window.removeEventListener('eip6963:requestProvider', announce);
}

/** Drawn: not inside a closed <details> (whose content Chromium keeps laid out, under content-visibility: hidden). */
const drawn = (node: Element) => node.checkVisibility();
const focused = (el: HTMLElement) => el.shadowRoot?.activeElement ?? null;

describe('<pay-checkout> with a thousand browser wallets announced', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('shows four, one a wallet, the rest (a bounded number) behind a disclosure the keyboard opens, and the QR near the top', async () => {
    stop = flood();
    const { payment_link_ref } = await createLink();
    const { el } = await mount(payment_link_ref, { locale: 'vi' });
    await startPayment(el, 'ETH:ETHEREUM');
    await until(el, 'the wallet buttons', () => parts(el, 'wallet-button').length > 0);

    const shown = parts(el, 'wallet-button').filter(drawn);
    expect(shown.map((b) => textOf(b)), 'four buttons, each wallet once').to.deep.equal([0, 1, 2, 3].map((i) => `Thanh toán bằng Wallet ${i}`));
    const more = partOf<HTMLDetailsElement>(el, 'more-wallets');
    const summary = more.querySelector('summary')!;
    // 50 kept of the thousand, four of them shown.
    expect(textOf(summary)).to.equal('Ví khác (46)');
    expect(parts(el, 'wallet-button'), 'no more than the bounded number kept').to.have.length(50);
    const group = partOf(el, 'browser-wallets').getBoundingClientRect();
    const qr = partOf(el, 'qr').getBoundingClientRect();
    expect(qr.top - group.top, 'the QR within a screen of the wallet buttons').to.be.below(window.innerHeight);
    await expect(el).to.be.accessible();

    // Keyboard only: Tab to the disclosure, Enter opens it, Tab goes on to the first wallet it held.
    (document.activeElement as HTMLElement | null)?.blur();
    for (let i = 0; i < 25 && focused(el) !== summary; i++) await sendKeys({ press: 'Tab' });
    expect(focused(el), 'Tab reaches the disclosure').to.equal(summary);
    await sendKeys({ press: 'Enter' });
    await until(el, 'the disclosure open', () => more.open);
    expect(parts(el, 'wallet-button').filter(drawn)).to.have.length(50);
    await sendKeys({ press: 'Tab' });
    expect(textOf(focused(el) ?? undefined)).to.equal('Thanh toán bằng Wallet 4');
    expect(part(el, 'qr'), 'the QR stays').to.be.instanceOf(HTMLCanvasElement);
    await expect(el).to.be.accessible();
  });
});
