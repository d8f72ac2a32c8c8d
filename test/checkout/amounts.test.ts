// Exactly what to send: amounts a person can type, an address-only QR explained, the
// exchange fee warned of, a partial payment acknowledged the moment it is seen, and the remainder in VND.
import { expect } from '@open-wc/testing';
import { addressOf, amountCrypto, mount, part, partOf, payAndConfirm, payingCheckout, startPayment, textOf, until } from './helpers/element.js';
import { percentOf, sameAmount } from './helpers/money.js';
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

  it('says that an address-only QR (TRON) needs the amount typed, and warns of exchange fees', async () => {
    const { el } = await payingCheckout('USDT:TRON', { locale: 'en' });
    const amount = amountCrypto(el)!;
    expect(textOf(partOf(el, 'qr-note')), 'the QR holds the address only').to.include(amount).and.match(/type|paste/i);
    expect(textOf(partOf(el, 'fee-note')), 'the fee comes on top').to.match(/fee/i).and.include(amount);
    expect(textOf(partOf(el, 'network-warning'))).to.include('TRON');
    await expect(el).to.be.accessible();

    // A BIP21 QR carries the amount: no such note, the fee warning stays.
    const btc = await createLink();
    const other = await mount(btc.payment_link_ref, { locale: 'en' });
    await startPayment(other.el, 'BTC:BITCOIN');
    expect(part(other.el, 'qr-note') === undefined, 'no note on a QR that carries the amount').to.equal(true);
    expect(part(other.el, 'fee-note') !== undefined, 'the fee note').to.equal(true);
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
