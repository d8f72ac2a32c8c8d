// Exactly what to send: amounts a person can type, an address-only QR explained, the
// exchange fee warned of, a partial payment acknowledged the moment it is seen, and the remainder in VND.
import { expect } from '@open-wc/testing';
import { addressOf, amountCrypto, copiedBy, mount, part, partOf, payAndConfirm, payingCheckout, startPayment, textOf, until } from './helpers/element.js';
import { minus, percentOf, sameAmount } from './helpers/money.js';
import { createLink, pay, paymentOf } from './helpers/server.js';

/** The figure of a `data-*` holder inside a part. */
const figure = (el: HTMLElement, name: string, attribute: string) => {
  const holder = partOf(el, name);
  return (holder.hasAttribute(attribute) ? holder : holder.querySelector(`[${attribute}]`))?.getAttribute(attribute) ?? null;
};

const enVnd = (amount: number) => amount.toLocaleString('en');

describe('<pay-checkout> amounts', () => {
  it('asks for ETH with at most 6 decimals, the precision a person can type', async () => {
    const { el, ref: payment_link_ref } = await payingCheckout('ETH:ETHEREUM', { locale: 'en' });
    expect(amountCrypto(el)).to.match(/^\d+(\.\d{1,6})?$/);
    expect(amountCrypto(el)).to.equal((await paymentOf(payment_link_ref)).amount_crypto);
    expect(textOf(partOf(el, 'amount-crypto'))).to.match(/^\d+(\.\d{1,6})? ETH$/);
  });

  it('says that an address-only QR (TRON) needs the amount typed, and answers the exchange fee', async () => {
    const { el } = await payingCheckout('USDT:TRON', { locale: 'en' });
    const amount = amountCrypto(el)!;
    expect(textOf(partOf(el, 'qr-note')), 'the QR holds the address only').to.include(amount).and.match(/type|paste/i);
    expect(textOf(partOf(el, 'network-warning'))).to.include('TRON');
    await until(el, '"I pay from an exchange"', () => !!part(el, 'from-exchange'));
    await expect(el).to.be.accessible();

    // A BIP21 QR carries the amount: no such note; the exchange's fee is answered the same (BTC's usual fee).
    const btc = await createLink();
    const other = await mount(btc.payment_link_ref, { locale: 'en' });
    await startPayment(other.el, 'BTC:BITCOIN');
    expect(part(other.el, 'qr-note') === undefined, 'no note on a QR that carries the amount').to.equal(true);
    await until(other.el, '"I pay from an exchange"', () => !!part(other.el, 'from-exchange'));
    const due = amountCrypto(other.el)!;
    expect(sameAmount(minus(figure(other.el, 'amount-to-type', 'data-amount-to-type')!, '0.0002', 8), due, 8), 'BTC: the due plus 0.0002').to.equal(true);
  });

  for (const locale of ['vi', 'en'] as const) {
    it(`shows what to type at an exchange so that the amount arrives, with the fee and the tolerance in one line, and copies it (${locale})`, async () => {
      const { el, payment } = await payingCheckout('USDT:TRON', { locale });
      await until(el, '"I pay from an exchange"', () => !!part(el, 'from-exchange'));
      const panel = partOf<HTMLDetailsElement>(el, 'from-exchange');
      expect(panel.open, 'folded until asked').to.equal(false);
      const summary = panel.querySelector('summary')!;
      expect(textOf(summary)).to.equal(locale === 'vi' ? 'Tôi chuyển từ sàn' : 'I pay from an exchange');
      summary.click();
      await until(el, 'the panel open', () => panel.open);
      // The sandbox's usual fee of USDT on TRON: 1 USDT (docs/networks.md, "Withdrawal fees").
      const typed = figure(el, 'amount-to-type', 'data-amount-to-type')!;
      expect(minus(typed, '1', 2), 'typed − fee = the amount due').to.equal(minus(payment.amount_crypto, '0', 2));
      const shown = (amount: string) => (locale === 'vi' ? amount.replace('.', ',') : amount);
      expect(textOf(partOf(el, 'amount-to-type'))).to.equal(`${shown(typed)} USDT`);
      const line = textOf(partOf(el, 'fee-line'));
      expect(line, 'the fee').to.include('1 USDT');
      expect(line, 'what to type and what arrives').to.include(shown(typed)).and.include(shown(payment.amount_crypto));
      expect(line, 'the tolerance').to.include(locale === 'vi' ? '0,5%' : '0.5%');
      expect(line, 'the network').to.include('TRON');

      const copied = await copiedBy(el, 'copy-amount-to-type');
      expect(copied, 'the amount as wallets parse it (a point, no separators)').to.deep.equal([typed]);
      await until(el, 'the button says so', () => textOf(partOf(el, 'copy-amount-to-type')) === (locale === 'vi' ? 'Đã sao chép' : 'Copied'));
      expect(textOf(partOf(el, 'copy-amount')), 'the other copy button unchanged').to.not.equal(textOf(partOf(el, 'copy-amount-to-type')));
      await expect(el).to.be.accessible();
    });
  }

  it('says exactly what is missing when a payment arrives short by about a fee: the rest, to the same address', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    const underpaid = await payAndConfirm(el, payment_link_ref, quoted, minus(quoted.amount_crypto, '1', 6), 'underpaid');
    expect(sameAmount(underpaid.remaining_crypto, '1', 6), 'short by the fee').to.equal(true);
    const missing = textOf(partOf(el, 'missing'));
    expect(missing).to.include('Còn thiếu: 1 USDT').and.include('đúng địa chỉ này');
    expect(figure(el, 'missing', 'data-missing-crypto')).to.equal(underpaid.remaining_crypto);
    // What to type at an exchange for the rest: the rest plus the fee.
    await until(el, '"I pay from an exchange"', () => !!part(el, 'from-exchange'));
    expect(figure(el, 'amount-to-type', 'data-amount-to-type')).to.equal('2');
  });

  it('acknowledges a partial payment at 0 confirmations: received, and what is left in crypto and VND', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    const half = percentOf(quoted.amount_crypto, 50, 6);
    await pay(addressOf(el)!, 'USDT', 'TRON', half);

    // Nothing mined: the gateway has seen the transfer, not confirmed it.
    await until(el, 'the received amount', () => !!part(el, 'received'));
    const seen = await paymentOf(payment_link_ref);
    expect(seen.status).to.equal('awaiting_payment');
    expect(seen.transactions.map((t) => t.confirmations)).to.deep.equal([0]);
    expect(sameAmount(figure(el, 'received', 'data-received-crypto')!, half, 6), 'received so far').to.equal(true);
    expect(figure(el, 'amount-remaining', 'data-remaining-crypto'), 'still to send').to.equal(seen.remaining_crypto);
    expect(textOf(partOf(el, 'amount-vnd')), 'still to send, in VND').to.include(enVnd(seen.remaining_vnd)).and.not.include('360,000');
    expect(seen.remaining_vnd).to.be.greaterThan(0).and.lessThan(360_000);
    await expect(el).to.be.accessible();
  });

  it('shows the remainder of an underpayment in VND, not the whole order', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    const underpaid = await payAndConfirm(el, payment_link_ref, quoted, percentOf(quoted.amount_crypto, 60, 6), 'underpaid');
    expect(figure(el, 'amount-remaining', 'data-remaining-crypto')).to.equal(underpaid.remaining_crypto);
    expect(textOf(partOf(el, 'amount-vnd'))).to.include(enVnd(underpaid.remaining_vnd)).and.not.include('360,000');
    await expect(el).to.be.accessible();
  });
});
