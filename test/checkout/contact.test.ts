// The contact: optional unless the link asks for it (a guest checkout, or billing details naming the
// customer), and what the customer typed kept for the link across a reload and a change of coin, in the session's
// storage only; storage that throws changes nothing but that.
import { expect } from '@open-wc/testing';
import type { Locale } from '../../src/checkout/index.js';
import { control, fill, mount, part, partOf, press, textOf, until, untilView } from './helpers/element.js';
import { createLink } from './helpers/server.js';

/** Mounts the link again, as a reload does: the old element goes, a new one loads the link. */
async function reload(el: HTMLElement, ref: string, locale: Locale) {
  el.remove();
  return (await mount(ref, { locale })).el;
}

describe('<pay-checkout> contact', () => {
  for (const locale of ['vi', 'en'] as const) {
    it(`is optional when the link asks for none: nothing typed, the payment opens (${locale})`, async () => {
      const { payment_link_ref } = await createLink({ default_guest_checkout: false, billing_details: {} });
      const { el } = await mount(payment_link_ref, { locale });
      await untilView(el, 'order');
      const contact = partOf(el, 'contact');
      expect(textOf(contact.querySelector('legend')!)).to.equal(locale === 'vi' ? 'Thông tin liên hệ (không bắt buộc)' : 'Contact (optional)');
      for (const name of ['name', 'email', 'phone']) expect(control(el, `input[name="${name}"]`).required, `${name} not required`).to.equal(false);
      await expect(el).to.be.accessible();
      press(el, 'pay-button');
      await untilView(el, 'payment');
    });
  }

  it('is required when the link asks for a guest checkout', async () => {
    const { payment_link_ref } = await createLink({ default_guest_checkout: true, billing_details: {} });
    const { el } = await mount(payment_link_ref, { locale: 'vi' });
    await untilView(el, 'order');
    expect(textOf(partOf(el, 'contact').querySelector('legend')!)).to.equal('Thông tin liên hệ');
    expect(control(el, 'input[name="email"]').required).to.equal(true);
    press(el, 'pay-button');
    await until(el, 'the e-mail asked for', () => control(el, 'input[name="email"]').getAttribute('aria-invalid') === 'true');
    expect(part(el, 'qr'), 'no payment').to.equal(undefined);
  });

  it('keeps what was typed for the link across a reload and a change of coin, in the session only', async () => {
    const { payment_link_ref } = await createLink({ default_guest_checkout: true, billing_details: {} });
    let { el } = await mount(payment_link_ref, { locale: 'en' });
    await untilView(el, 'order');
    fill(el, 'name', 'Trần Thị Bình');
    fill(el, 'email', 'binh@example.com');

    el = await reload(el, payment_link_ref, 'en');
    await untilView(el, 'order');
    expect([control(el, 'input[name="name"]').value, control(el, 'input[name="email"]').value], 'after a reload').to.deep.equal(['Trần Thị Bình', 'binh@example.com']);
    press(el, 'pay-button');
    await untilView(el, 'payment');

    // A reload lands on the open payment; changing coin there shows the order with the contact as typed.
    el = await reload(el, payment_link_ref, 'en');
    await untilView(el, 'payment');
    press(el, 'change-coin');
    await untilView(el, 'order');
    expect([control(el, 'input[name="name"]').value, control(el, 'input[name="email"]').value], 'after a change of coin').to.deep.equal(['Trần Thị Bình', 'binh@example.com']);

    expect(JSON.parse(sessionStorage.getItem(`pay-checkout:contact:${payment_link_ref}`)!)).to.include({ name: 'Trần Thị Bình', email: 'binh@example.com' });
    expect(Object.keys(localStorage).filter((key) => key.startsWith('pay-checkout')), 'nothing in local storage').to.deep.equal([]);
  });

  it('works as before where storage throws', async () => {
    const { getItem, setItem } = Storage.prototype;
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    Storage.prototype.getItem = refuse;
    Storage.prototype.setItem = refuse;
    try {
      const { payment_link_ref } = await createLink({ default_guest_checkout: true, billing_details: {} });
      const { el } = await mount(payment_link_ref, { locale: 'en' });
      await untilView(el, 'order');
      fill(el, 'name', 'An');
      fill(el, 'email', 'an@example.com');
      press(el, 'pay-button');
      await untilView(el, 'payment');
    } finally {
      Storage.prototype.getItem = getItem;
      Storage.prototype.setItem = setItem;
    }
  });
});
