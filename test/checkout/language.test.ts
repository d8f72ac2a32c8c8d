// The customer's language: no English word in the Vietnamese UI, in any view, checked by
// walking the shadow DOM; and a switch in the card that changes every string.
import { expect } from '@open-wc/testing';
import type { CheckoutView, Payment } from '../../src/contract/index.js';
import { addressOf, control, fill, mount, part, partOf, payingCheckout, press, shownTexts, startPayment, until, untilView } from './helpers/element.js';
import { englishWords } from './helpers/english.js';
import { percentOf } from './helpers/money.js';
import { checkoutView, createLink, expireQuote, mine, pay, stubCheckout } from './helpers/server.js';

const shipping_details = {
  shipping_name: 'Trần Thị Bình',
  shipping_phone: '+84 905 111 222',
  shipping_address: { line_1: '45 Lý Thường Kiệt', city: 'Đà Nẵng', country_code: 'VN' },
};
const merchant_details = { name: 'Cà Phê Sữa Đá', back_url: 'https://shop.example/cart', promo_code: 'TET2026', promo_discount: 20_000, shipping_charges: 30_000 };

/** The link's own texts (the merchant's and the customer's words), and the payment's reference, address and hashes. */
function ownTexts(view: CheckoutView, payment?: Payment | null): string[] {
  const m = view.merchant_details;
  const b = view.billing_details;
  const s = view.shipping_details;
  const addresses = [b?.billing_address, s?.shipping_address].flatMap((a) => [a?.line_1, a?.line_2, a?.city, a?.state, a?.postal_code]);
  return [
    m.name,
    m.promo_code,
    view.description,
    view.merchant_order_id,
    ...view.order_details.map((l) => l.name),
    b?.billing_name,
    b?.billing_email,
    b?.billing_phone,
    s?.shipping_name,
    s?.shipping_email,
    s?.shipping_phone,
    ...addresses,
    payment?.payment_id,
    payment?.address,
    ...(payment?.transactions.map((t) => t.tx_hash) ?? []),
  ].filter((text): text is string => Boolean(text));
}

/** Fails naming every Vietnamese-marked text of the element that holds an English word. */
async function expectNoEnglish(el: HTMLElement, where: string, view?: CheckoutView | null): Promise<void> {
  if (view === undefined) view = await checkoutView(el.getAttribute('payment-link-ref')!);
  const allowed = view ? ownTexts(view, view.payment) : [];
  expect(partOf(el, 'card').getAttribute('lang'), `${where}: the card's language`).to.equal('vi');
  const english = shownTexts(el)
    .filter((t) => t.lang === 'vi')
    .map((t) => ({ text: t.text, words: englishWords(t.text, allowed) }))
    .filter((t) => t.words.length)
    .map((t) => `"${t.text}" (${t.words.join(', ')})`);
  expect(english, `English in the Vietnamese ${where} view`).to.deep.equal([]);
}

describe('<pay-checkout> in Vietnamese', () => {
  it('shows no English word in the order, payment, partial, underpaid, confirming and paid views', async () => {
    const { payment_link_ref } = await createLink({ show_shipping_details: true, shipping_details, show_back_button: true, merchant_details });
    const { el } = await mount(payment_link_ref, { locale: 'vi' });
    await untilView(el, 'order');
    await expectNoEnglish(el, 'order');
    expect(part(el, 'language-switch') !== undefined, 'a language switch').to.equal(true);

    // The guest form with its errors.
    control(el, '[part~="contact"] button').click();
    await until(el, 'the contact form', () => !!part(el, 'contact')?.querySelector('input[name="email"]'));
    fill(el, 'email', 'not an email');
    press(el, 'pay-button');
    await until(el, 'the email error', () => control(el, 'input[name="email"]').getAttribute('aria-invalid') === 'true');
    await expectNoEnglish(el, 'order (contact errors)');
    fill(el, 'email', 'an@example.com');

    await startPayment(el, 'USDT:TRON');
    await expectNoEnglish(el, 'payment');

    const { payment } = await checkoutView(payment_link_ref);
    await pay(addressOf(el)!, 'USDT', 'TRON', percentOf(payment!.amount_crypto, 50, 6));
    await until(el, 'the partial payment acknowledged', () => !!part(el, 'received'));
    await expectNoEnglish(el, 'partial payment');

    await mine(payment!.confirmations_required, 'TRON');
    await untilView(el, 'underpaid');
    await expectNoEnglish(el, 'underpaid');

    const underpaid = (await checkoutView(payment_link_ref)).payment!;
    await pay(underpaid.address, 'USDT', 'TRON', underpaid.remaining_crypto);
    await untilView(el, 'confirming');
    await expectNoEnglish(el, 'confirming');

    await mine(payment!.confirmations_required, 'TRON');
    await untilView(el, 'paid');
    await expectNoEnglish(el, 'paid');
    await expect(el).to.be.accessible();
  });

  it('shows no English word in the expired and paid-late views', async () => {
    const { el, ref: payment_link_ref } = await payingCheckout('BTC:BITCOIN', { locale: 'vi' });
    const { payment } = await checkoutView(payment_link_ref);
    await expectNoEnglish(el, 'payment (BTC)');
    await expireQuote(payment!.payment_id);
    await untilView(el, 'expired');
    await expectNoEnglish(el, 'expired');
    await pay(payment!.address, 'BTC', 'BITCOIN', payment!.amount_crypto);
    await mine(payment!.confirmations_required, 'BITCOIN');
    await untilView(el, 'paid_late');
    await expectNoEnglish(el, 'paid late');
  });

  it("shows no English word in errors, the gateway's own English detail included", async () => {
    const missing = await mount('plk_does_not_exist', { locale: 'vi' });
    await untilView(missing.el, 'error');
    await expectNoEnglish(missing.el, 'not found', null);

    // A stub link on the test server's origin: the gateway refuses the payment with an English problem detail.
    const { payment_link_ref } = await createLink();
    const view: CheckoutView = { ...(await checkoutView(payment_link_ref)), payment_link_ref: `stub_${payment_link_ref}` };
    await stubCheckout(view);
    const { el, events } = await mount(view.payment_link_ref, { locale: 'vi', apiBase: location.origin });
    await untilView(el, 'order');
    press(el, 'pay-button');
    await until(el, 'the refusal shown', () => !!part(el, 'error'));
    expect(events.find((e) => e.type === 'pay-checkout-error')?.detail, 'the event keeps the detail').to.have.property('message').that.matches(/funds/);
    await expectNoEnglish(el, 'refused payment', view);
  });
});

/** The element's own strings as the customer sees them: the link's texts, numbers and names taken out. */
function ownStrings(el: HTMLElement, allowed: readonly string[]): Set<string> {
  const strings = shownTexts(el)
    .filter((t) => t.lang === partOf(el, 'card').getAttribute('lang'))
    .map(({ text }) => {
      let rest = text;
      for (const value of allowed) rest = rest.replaceAll(value, ' ');
      return rest
        .replace(/\b(USDT|ETH|BTC|TRC-20|ERC-20|TRON|pay-checkout)\b/g, ' ')
        .replace(/[\d.,:×−+%₫()·=]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    })
    .filter((text) => /\p{L}/u.test(text));
  return new Set(strings);
}

describe('<pay-checkout> language switch', () => {
  it('changes every string of the order and payment views, and back', async () => {
    const { payment_link_ref } = await createLink({ show_shipping_details: true, shipping_details, show_back_button: true, merchant_details });
    const { el } = await mount(payment_link_ref);
    await untilView(el, 'order');
    const view = await checkoutView(payment_link_ref);
    const allowed = ownTexts(view);
    expect(partOf(el, 'card').getAttribute('lang'), "the link's language first").to.equal('vi');
    const vi = ownStrings(el, allowed);

    press(el, 'language-switch');
    await until(el, 'English', () => partOf(el, 'card').getAttribute('lang') === 'en');
    const en = ownStrings(el, allowed);
    expect([...vi].filter((s) => en.has(s)), 'strings left untranslated').to.deep.equal([]);
    expect(en.size, 'as many strings in English').to.be.greaterThan(vi.size * 0.8);
    await expect(el).to.be.accessible();

    press(el, 'language-switch');
    await until(el, 'Vietnamese again', () => partOf(el, 'card').getAttribute('lang') === 'vi');
    expect([...ownStrings(el, allowed)].sort()).to.deep.equal([...vi].sort());

    await startPayment(el, 'USDT:TRON');
    const { payment } = await checkoutView(payment_link_ref);
    const paying = ownTexts(view, payment);
    const viPayment = ownStrings(el, paying);
    press(el, 'language-switch');
    await until(el, 'English', () => partOf(el, 'card').getAttribute('lang') === 'en');
    const enPayment = ownStrings(el, paying);
    expect([...viPayment].filter((s) => enPayment.has(s)), 'payment strings left untranslated').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });
});
