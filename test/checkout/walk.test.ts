// The customer's walk through a payment that does not go to plan: another coin after Pay, a partial payment whose
// quote ran out (what was received counts, the new quote asks for the rest), money that arrives after the rate lock,
// and amounts written as a Vietnamese reader reads them while copies stay as wallets parse them.
import { expect } from '@open-wc/testing';
import { amountCrypto, control, copiedBy, part, partOf, payingCheckout, press, textOf, until, untilView, viewOf } from './helpers/element.js';
import { percentOf } from './helpers/money.js';
import { checkoutView, expireQuote, gatewayUrl, mine, pay, paymentOf } from './helpers/server.js';

describe('<pay-checkout> walk', () => {
  it('changes coin after Pay: back to the coins, and the payment opened in the other one', async () => {
    const { el, ref, payment: first } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    expect(textOf(partOf(el, 'change-coin'))).to.equal('Đổi loại tiền');
    press(el, 'change-coin');
    await untilView(el, 'order');
    expect(control(el, 'input[type="radio"][value="USDT:TRON"]').checked, 'the coin it was in is picked').to.equal(true);
    await expect(el).to.be.accessible();

    control(el, 'input[type="radio"][value="ETH:ETHEREUM"]').click();
    press(el, 'pay-button');
    await until(el, 'the payment in ETH', () => part(el, 'amount-crypto')?.textContent?.includes('ETH') === true);
    const second = await paymentOf(ref);
    expect([second.asset, second.network]).to.deep.equal(['ETH', 'ETHEREUM']);
    expect(second.payment_id).to.not.equal(first.payment_id);
    expect(amountCrypto(el)).to.equal(second.amount_crypto);
  });

  it('a partial payment whose quote ran out: received and left before and after the new quote, which asks for the rest only', async () => {
    const { el, ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    await pay(quoted.address, 'USDT', 'TRON', percentOf(quoted.amount_crypto, 50, 2));
    await mine(quoted.confirmations_required, 'TRON');
    await untilView(el, 'underpaid');
    await expireQuote(quoted.payment_id);
    await untilView(el, 'expired');

    const { received_vnd, amount } = await checkoutView(ref);
    expect(received_vnd, 'the gateway credits what came in time').to.be.greaterThan(0);
    // The expired view comes with the payment's status; the credit with the link's view, read after it.
    await until(el, 'the credit of what arrived in time', () => part(el, 'credit') !== null);
    const credit = partOf(el, 'credit');
    expect(credit.getAttribute('data-received-vnd')).to.equal(String(received_vnd));
    expect(credit.getAttribute('data-left-vnd')).to.equal(String(amount - received_vnd));
    expect(textOf(credit)).to.include('Đã nhận').and.include('Còn lại');
    expect(textOf(partOf(el, 'new-quote-button'))).to.equal('Lấy báo giá cho phần còn lại');
    await expect(el).to.be.accessible();

    press(el, 'new-quote-button');
    await untilView(el, 'payment');
    const rest = await paymentOf(ref);
    expect(rest.payment_id).to.not.equal(quoted.payment_id);
    expect(rest.amount_vnd, 'the new quote is for what is left').to.equal(amount - received_vnd);
    expect(amountCrypto(el)).to.equal(rest.amount_crypto);
    expect(partOf(el, 'credit').getAttribute('data-left-vnd')).to.equal(String(rest.amount_vnd));
    await expect(el).to.be.accessible();
  });

  it('a partial payment on a link that then expires: what came in time shows, and no new quote is promised', async () => {
    const { el, ref, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    await pay(quoted.address, 'USDT', 'TRON', percentOf(quoted.amount_crypto, 50, 2));
    await mine(quoted.confirmations_required, 'TRON');
    await untilView(el, 'underpaid');
    await fetch(`${await gatewayUrl()}/sandbox/payment-links/${ref}/expire`, { method: 'POST' });
    await until(el, 'the expired link', () => textOf(part(el, 'card')).includes('This payment link has expired.'));
    expect(viewOf(el)).to.equal('expired');
    expect(textOf(partOf(el, 'card'))).to.include('held for the merchant').and.not.include('new quote');
    expect(part(el, 'new-quote-button') === undefined && part(el, 'change-coin') === undefined, 'nothing asks for another payment').to.equal(true);
    expect(partOf(el, 'credit').getAttribute('data-received-vnd')).to.equal(String((await checkoutView(ref)).received_vnd));
    await expect(el).to.be.accessible();
  });

  it('acknowledges money that arrives after the rate lock from its first sighting, before any block', async () => {
    const { el, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    await expireQuote(quoted.payment_id);
    await untilView(el, 'expired');
    await pay(quoted.address, 'USDT', 'TRON', quoted.amount_crypto);
    await untilView(el, 'late');
    expect(textOf(partOf(el, 'card'))).to.include('We see your payment').and.include('merchant');
    expect(part(el, 'new-quote-button') === undefined && part(el, 'change-coin') === undefined, 'nothing asks for a second payment').to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('keeps the late payment on screen when answers asked for before it arrive after it', async () => {
    const { el, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'en' });
    // The answers to the element's requests are held back (the requests themselves reach the gateway at once); the
    // event stream is not a fetch and goes on.
    const held: (() => void)[] = [];
    let read = 0;
    const fetch = window.fetch;
    window.fetch = (input, init) => {
      const answer = fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).includes('/api/checkout/')) return answer;
      return answer.then((response) => {
        // Counts the answers the element has read: what it does with one runs before the next timer.
        const json = response.json.bind(response);
        response.json = () => json().finally(() => read++);
        return new Promise((release) => held.push(() => release(response)));
      });
    };
    try {
      await expireQuote(quoted.payment_id);
      await untilView(el, 'expired');
      // The quote's end asks for the view again, and its countdown for the payment: both answered before any money.
      await until(el, 'a request asked before the money', () => held.length > 0);
      await pay(quoted.address, 'USDT', 'TRON', quoted.amount_crypto);
      await untilView(el, 'late');
    } finally {
      window.fetch = fetch;
    }
    for (const release of held) release();
    await until(el, 'the held answers read', () => read === held.length);
    expect(viewOf(el), 'an answer from before the money does not take its view away').to.equal('late');
  });

  it('gives USDT on TRON in the sandbox no wallet link (no app opens tron:), and the copy buttons', async () => {
    const { el } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    expect(el.shadowRoot!.querySelectorAll('a[part~="wallet-link"]').length, 'wallet links').to.equal(0);
    expect(part(el, 'copy-amount') && part(el, 'copy-address'), 'the copy buttons').to.be.instanceOf(Element);
    await expect(el).to.be.accessible();
  });

  it('writes crypto amounts with a decimal comma in vi, and copies them as wallets parse them', async () => {
    const { el, payment: quoted } = await payingCheckout('USDT:TRON', { locale: 'vi' });
    expect(quoted.amount_crypto).to.match(/^\d+\.\d+$/);
    const shown = quoted.amount_crypto.replace('.', ',');
    expect(textOf(partOf(el, 'amount-crypto'))).to.equal(`${shown} USDT`);
    expect(textOf(partOf(el, 'qr-note'))).to.include(shown);
    expect(await copiedBy(el, 'copy-amount')).to.deep.equal([quoted.amount_crypto]);
  });
});
