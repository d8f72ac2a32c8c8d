// Keyboard only: contact and method steps with Tab, typing, arrow keys and Enter, until the QR shows.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { addressOf, control, focusedHeading, mount, partOf, until, untilView, viewOf } from './helpers/element.js';
import { checkoutView, createLink, mine, pay } from './helpers/server.js';

/** The focused element inside the checkout's shadow root. */
const focused = (el: HTMLElement) => el.shadowRoot?.activeElement ?? null;

/** Presses Tab until `match` holds for the focused element; fails after `limit` presses, naming where focus was. */
async function tabTo(el: HTMLElement, what: string, match: (node: Element) => boolean, limit = 25): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await sendKeys({ press: 'Tab' });
    const node = focused(el);
    if (node && match(node)) return;
  }
  const node = focused(el);
  throw new Error(`${limit} presses of Tab never reached ${what}; focus is on ${node ? node.outerHTML.slice(0, 120) : document.activeElement?.tagName}`);
}

/** A guest checkout in its order view, its name typed from the keyboard, focus still in the name field. */
async function guestOrderWithName(): Promise<{ el: HTMLElement; payment_link_ref: string }> {
  const { payment_link_ref } = await createLink({ default_guest_checkout: true, billing_details: {} });
  const { el } = await mount(payment_link_ref, { locale: 'en' });
  await untilView(el, 'order');
  (document.activeElement as HTMLElement | null)?.blur();
  await tabTo(el, 'the name input', (node) => node.matches('input[name="name"]'));
  // WebKitWebDriver drops one space when typing several: a name with one.
  await sendKeys({ type: 'Cuong Tran' });
  return { el, payment_link_ref };
}

describe('<pay-checkout> with the keyboard alone', () => {
  it('fills the guest contact, picks an asset with the arrow keys and opens the payment with Enter', async () => {
    const { el, payment_link_ref } = await guestOrderWithName();
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.matches('input[name="email"]'), 'Tab goes from name to email').to.equal(true);
    await sendKeys({ type: 'cuong@example.com' });
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.matches('input[name="phone"]'), 'Tab goes from email to phone').to.equal(true);
    await sendKeys({ type: '+84 903 123 456' });
    expect(control(el, 'input[name="name"]').value).to.equal('Cuong Tran');
    expect(control(el, 'input[name="email"]').value).to.equal('cuong@example.com');

    // The asset group is one Tab stop: focus lands on the chosen asset, the arrow keys move the choice.
    await tabTo(el, 'the asset radio group', (node) => node.matches('input[type="radio"][name="asset"]'));
    const first = (focused(el) as HTMLInputElement).value;
    expect(first).to.equal('USDT:TRON');
    await sendKeys({ press: 'ArrowDown' });
    const chosen = focused(el) as HTMLInputElement;
    expect(chosen.value, 'ArrowDown moves to the next asset').not.to.equal(first);
    expect(chosen.checked, 'and chooses it').to.equal(true);

    await tabTo(el, 'the pay button', (node) => node.matches('[part~="pay-button"]'));
    await sendKeys({ press: 'Enter' });
    await untilView(el, 'payment');
    // Focus moves to the new view's heading, never back to the top of the page.
    await until(el, 'focus on the payment heading', () => focusedHeading(el) !== null);
    expect(focusedHeading(el)?.textContent).to.match(/pay|send/i);

    const { payment } = await checkoutView(payment_link_ref);
    expect(`${payment?.asset}:${payment?.network}`).to.equal(chosen.value);
    expect(addressOf(el)).to.equal(payment?.address);
    expect(partOf(el, 'qr').tagName).to.equal('CANVAS');
    await expect(el).to.be.accessible();
  });

  it('brings focus back to an invalid guest field instead of opening a payment', async () => {
    const { el, payment_link_ref } = await guestOrderWithName();
    await tabTo(el, 'the pay button', (node) => node.matches('[part~="pay-button"]'));
    await sendKeys({ press: ' ' });
    // No email: the element keeps the order view and puts the customer on the field to fix.
    await until(el, 'focus on the invalid email', () => focused(el)?.matches('input[name="email"]') === true);
    expect(viewOf(el)).to.equal('order');
    expect(control(el, 'input[name="email"]').getAttribute('aria-invalid')).to.equal('true');
    expect((await checkoutView(payment_link_ref)).payment, 'no payment opened').to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('moves focus to the heading of each view the gateway brings', async () => {
    const { payment_link_ref } = await createLink();
    const { el } = await mount(payment_link_ref, { locale: 'en' });
    await untilView(el, 'order');
    (document.activeElement as HTMLElement | null)?.blur();
    await tabTo(el, 'the pay button', (node) => node.matches('[part~="pay-button"]'));
    await sendKeys({ press: 'Enter' });
    await untilView(el, 'payment');
    await until(el, 'focus on the payment heading', () => focusedHeading(el) !== null);

    // The customer is on a copy button when the money arrives.
    await tabTo(el, 'the copy-address button', (node) => node.matches('[part~="copy-address"]'));
    const { payment } = await checkoutView(payment_link_ref);
    await pay(payment!.address, 'USDT', 'TRON', payment!.amount_crypto);
    await untilView(el, 'confirming');
    await until(el, 'focus on the confirming heading', () => focusedHeading(el)?.textContent?.match(/confirm/i) != null);
    await mine(payment!.confirmations_required, 'TRON');
    await untilView(el, 'paid');
    await until(el, 'focus on the paid heading', () => focusedHeading(el)?.textContent?.match(/complete|paid/i) != null);
    await expect(el).to.be.accessible();
  });
});
