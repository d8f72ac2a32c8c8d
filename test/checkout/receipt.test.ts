// The receipt: paid, overpaid and paid-late views say what was paid, with which asset on
// which network, the transaction hashes and the time; the return countdown shows, and the customer may stay.
import { expect } from '@open-wc/testing';
import { copiedBy, part, partOf, parts, payAndConfirm, payingCheckout, press, textOf, until, untilView } from './helpers/element.js';
import { minus, percentOf } from './helpers/money.js';
import { checkoutView, expireQuote } from './helpers/server.js';

const hashesShown = (el: HTMLElement) => parts(el, 'tx-hash').map((node) => node.getAttribute('data-tx-hash') ?? textOf(node));

describe('<pay-checkout> receipt', () => {
  it('shows what was paid, the transaction hash and the time, counts down to the return, and lets the customer stay', async () => {
    const { el, events, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    const paid = await payAndConfirm(el, payment_link_ref, quoted, quoted.amount_crypto, 'paid');

    const receipt = textOf(partOf(el, 'receipt'));
    expect(receipt).to.include(paid.amount_crypto).and.include('USDT').and.include('TRON').and.include('360,000');
    expect(textOf(partOf(el, 'receipt'))).to.include((await checkoutView(payment_link_ref)).merchant_order_id);
    expect(hashesShown(el)).to.deep.equal(paid.transactions.map((t) => t.tx_hash));
    expect(paid.paid_at, 'the gateway says when').to.be.a('string');
    expect(partOf(el, 'paid-at').querySelector('time')?.getAttribute('datetime')).to.equal(paid.paid_at);
    expect(textOf(partOf(el, 'countdown'))).to.match(/\d+ s/);
    // The success mark is drawn (its styles come with the chunk), above the heading, and hidden from screen readers.
    const mark = partOf(el, 'success-mark');
    expect(mark.getBoundingClientRect().width, 'the mark drawn').to.be.at.least(40);
    expect(mark.getBoundingClientRect().bottom).to.be.at.most(el.shadowRoot!.querySelector('h2')!.getBoundingClientRect().top);
    expect(mark.getAttribute('aria-hidden')).to.equal('true');
    await expect(el).to.be.accessible();

    press(el, 'stay-button');
    await until(el, 'the countdown stopped', () => !part(el, 'countdown'));
    expect(part(el, 'return-button') !== undefined, 'the way back stays').to.equal(true);
    expect(events.some((e) => e.type === 'pay-checkout-success'), 'no automatic return').to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('keeps the receipt: the hash copied as it is, and the receipt page linked (the end-to-end test opens it)', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    const paid = await payAndConfirm(el, payment_link_ref, quoted, quoted.amount_crypto, 'paid');
    const { receipt_url } = await checkoutView(payment_link_ref);
    expect(receipt_url, 'the gateway names the receipt page once money arrived').to.be.a('string');
    const link = partOf<HTMLAnchorElement>(el, 'receipt-link');
    expect(link.getAttribute('href')).to.equal(receipt_url);
    expect(textOf(link)).to.include('biên nhận');
    expect(link.target, 'in a tab of its own: the checkout stays').to.equal('_blank');
    expect(part(el, 'explorer-link'), 'no explorer for a simulated chain').to.equal(undefined);

    press(el, 'stay-button');
    expect(await copiedBy(el, 'copy-hash')).to.deep.equal([paid.transactions[0]!.tx_hash]);
    await expect(el).to.be.accessible();
  });

  it('says how much more than due arrived on an overpaid payment', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('BTC:BITCOIN', { locale: 'en' });
    const paid = await payAndConfirm(el, payment_link_ref, quoted, percentOf(quoted.amount_crypto, 110, 8), 'paid');
    expect(paid.overpaid).to.equal(true);
    const extra = minus(paid.received_crypto, paid.amount_crypto, 8).replace(/\.?0+$/, '');
    expect(textOf(partOf(el, 'overpaid-amount'))).to.include(extra).and.include('BTC');
    expect(hashesShown(el)).to.deep.equal(paid.transactions.map((t) => t.tx_hash));
    await expect(el).to.be.accessible();
  });

  it('gives a receipt for a payment that came after the quote expired', async () => {
    const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    await expireQuote(quoted.payment_id);
    await untilView(el, 'expired');
    const late = await payAndConfirm(el, payment_link_ref, quoted, quoted.amount_crypto, 'paid_late');
    expect(textOf(partOf(el, 'receipt'))).to.include(late.received_crypto.replace(/\.?0+$/, '')).and.include('USDT');
    expect(hashesShown(el)).to.deep.equal(late.transactions.map((t) => t.tx_hash));
    expect(part(el, 'countdown') === undefined, 'held for the merchant: no automatic return').to.equal(true);
    await expect(el).to.be.accessible();
  });
});
