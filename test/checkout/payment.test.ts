// Acceptance of the payment views: the QR read back from its pixels, the test wallet paying what the
// element shows, blocks mined on demand, and the element following the gateway's events to the end.
import { expect } from '@open-wc/testing';
import { REDIRECT_SECONDS } from '../../src/checkout/index.js';
import type { AssetCode, Network, Payment } from '../../src/contract/index.js';
import { addressOf, amountCrypto, decodeQr, mount, part, partOf, payingCheckout, press, startPayment, textOf, until, untilView } from './helpers/element.js';
import { percentOf } from './helpers/money.js';
import { checkoutView, createLink, expireQuote, mine, pay, paymentOf } from './helpers/server.js';

const qrOf = (el: HTMLElement) => decodeQr(partOf<HTMLCanvasElement>(el, 'qr'));

/** The QR's accessible name: its own label, or the text of what labels it. */
function accessibleName(node: Element): string {
  const ids = node.getAttribute('aria-labelledby');
  if (ids) return ids.split(/\s+/).map((id) => textOf((node.getRootNode() as ShadowRoot).getElementById(id) ?? undefined)).join(' ');
  return node.getAttribute('aria-label') ?? node.getAttribute('title') ?? textOf(node);
}

const ASSETS: { asset: AssetCode; network: Network }[] = [
  { asset: 'USDT', network: 'TRON' },
  { asset: 'ETH', network: 'ETHEREUM' },
  { asset: 'BTC', network: 'BITCOIN' },
];

describe('<pay-checkout> payment', () => {
  for (const { asset, network } of ASSETS) {
    it(`takes a ${asset} payment on ${network} from QR to paid`, async () => {
      const { payment_link_ref } = await createLink();
      const { el, events } = await mount(payment_link_ref, { locale: 'en' });
      await startPayment(el, `${asset}:${network}`);
      const payment = await paymentOf(payment_link_ref);
      expect(payment.asset).to.equal(asset);

      expect(qrOf(el), 'the QR encodes payment_uri').to.equal(payment.payment_uri);
      expect(amountCrypto(el)).to.equal(payment.amount_crypto);
      expect(addressOf(el)).to.equal(payment.address);
      expect(textOf(partOf(el, 'amount-vnd'))).to.include('360,000');
      expect(accessibleName(partOf(el, 'qr')), 'the QR is named with amount and address').to.include(payment.address).and.include(payment.amount_crypto);
      expect(textOf(partOf(el, 'network-warning'))).to.match(new RegExp(network, 'i'));
      expect(part(el, 'countdown'), 'the rate-lock countdown').to.be.instanceOf(Element);
      expect(part(el, 'copy-address'), 'copy address').to.be.instanceOf(Element);
      expect(part(el, 'copy-amount'), 'copy amount').to.be.instanceOf(Element);
      // TRON has no shared URI scheme (docs/api.md): its QR is the bare address, and no wallet link claims otherwise.
      if (network !== 'TRON') expect(partOf(el, 'wallet-link').getAttribute('href')).to.equal(payment.payment_uri);
      await expect(el).to.be.accessible();

      // The customer pays exactly what the screen says.
      await pay(addressOf(el)!, asset, network, amountCrypto(el)!);
      await untilView(el, 'confirming');
      // The change is announced politely, once, in the status region.
      const status = partOf(el, 'status');
      expect(status.getAttribute('aria-live') ?? (status.getAttribute('role') === 'status' ? 'polite' : null)).to.equal('polite');
      expect(textOf(status)).to.match(/confirm/i);
      await expect(el).to.be.accessible();
      await mine(1, network);
      await until(el, 'one confirmation shown', () => /\b1\b/.test(textOf(part(el, 'confirmations'))));
      await mine(payment.confirmations_required, network);
      await untilView(el, 'paid');

      const paid = await paymentOf(payment_link_ref);
      expect(paid.status).to.equal('paid');
      expect(part(el, 'return-button'), 'a button to return now').to.be.instanceOf(Element);
      await expect(el).to.be.accessible();
      // The element returns to the merchant on its own after a short countdown; the button does it at once.
      if (asset !== 'USDT') press(el, 'return-button');
      await until(el, 'pay-checkout-success', () => events.some((e) => e.type === 'pay-checkout-success'), (REDIRECT_SECONDS + 5) * 1000);
      const success = events.find((e) => e.type === 'pay-checkout-success');
      expect(success?.detail, 'pay-checkout-success with the signed URL').to.have.property('url', paid.success_redirect_url);
      const statuses = events.filter((e) => e.type === 'pay-checkout-status').map((e) => (e.detail as { payment: Payment }).payment.status);
      expect(statuses).to.include.members(['awaiting_payment', 'confirming', 'paid']);
      await expect(el).to.be.accessible();
    });
  }

  it('asks for the remainder of an underpayment, with the QR updated', async () => {
    const { el, ref: payment_link_ref, payment: first } = await payingCheckout('ETH:ETHEREUM', { locale: 'en' });
    expect(qrOf(el)).to.equal(first.payment_uri);

    await pay(first.address, 'ETH', 'ETHEREUM', percentOf(first.amount_crypto, 50, 18));
    await mine(first.confirmations_required, 'ETHEREUM');
    await untilView(el, 'underpaid');

    const underpaid = await paymentOf(payment_link_ref);
    expect(underpaid.status).to.equal('underpaid');
    expect(underpaid.payment_uri).not.to.equal(first.payment_uri);
    await until(el, 'the QR for the remainder', () => qrOf(el) === underpaid.payment_uri);
    expect(partOf(el, 'amount-remaining').querySelector('[data-remaining-crypto]')?.getAttribute('data-remaining-crypto'), 'the remainder').to.equal(
      underpaid.remaining_crypto,
    );
    expect(addressOf(el), 'the same address').to.equal(first.address);
    await expect(el).to.be.accessible();

    await pay(first.address, 'ETH', 'ETHEREUM', underpaid.remaining_crypto);
    await mine(first.confirmations_required, 'ETHEREUM');
    await untilView(el, 'paid');
    await expect(el).to.be.accessible();
  });

  it('offers a new quote when the quote expires, and shows it', async () => {
    const { el, ref: payment_link_ref, payment: first } = await payingCheckout('USDT:TRON', { locale: 'en' });
    await expireQuote(first.payment_id);
    await untilView(el, 'expired');
    expect(part(el, 'qr'), 'no QR for a dead quote').to.equal(undefined);
    await expect(el).to.be.accessible();

    press(el, 'new-quote-button');
    await untilView(el, 'payment');
    const fresh = await paymentOf(payment_link_ref);
    expect(fresh.status).to.equal('awaiting_payment');
    expect(Date.parse(fresh.quote_expires_at)).to.be.greaterThan(Date.parse(first.quote_expires_at));
    expect(addressOf(el)).to.equal(fresh.address);
    expect(amountCrypto(el)).to.equal(fresh.amount_crypto);
    expect(qrOf(el)).to.equal(fresh.payment_uri);
    await expect(el).to.be.accessible();
  });

  it('shows a payment that arrived after the quote expired as paid late', async () => {
    const { el, events, ref: payment_link_ref, payment: quoted } = await payingCheckout('BTC:BITCOIN', { locale: 'en' });
    await expireQuote(quoted.payment_id);
    await untilView(el, 'expired');
    await pay(quoted.address, 'BTC', 'BITCOIN', quoted.amount_crypto);
    await mine(quoted.confirmations_required, 'BITCOIN');
    await untilView(el, 'paid_late');
    expect((await paymentOf(payment_link_ref)).status).to.equal('paid_late');
    expect(events.some((e) => e.type === 'pay-checkout-success'), 'a late payment is not a success').to.equal(false);
    expect(part(el, 'new-quote-button'), 'no new quote once paid late').to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  for (const locale of ['vi', 'en'] as const) {
    it(`says not to send to an expired quote's address, then what happens to money that came late and by whose decision, with the payment's reference (${locale})`, async () => {
      const { el, ref: payment_link_ref, payment: quoted } = await payingCheckout('BTC:BITCOIN', { locale });
      await expireQuote(quoted.payment_id);
      await untilView(el, 'expired');
      expect(textOf(partOf(el, 'old-address'))).to.equal(
        locale === 'vi'
          ? 'Đừng gửi thêm vào địa chỉ cũ. Nếu bạn đã gửi tiền đến đó, chúng tôi vẫn sẽ thấy và hiển thị tại đây.'
          : 'Do not send anything more to the old address. If you already sent money there, we will still see it and show it here.',
      );
      await expect(el).to.be.accessible();

      // Money to the old address all the same: seen, held for the merchant, who decides; no time is set for it.
      await pay(quoted.address, 'BTC', 'BITCOIN', quoted.amount_crypto);
      await untilView(el, 'late');
      const merchant = (await checkoutView(payment_link_ref)).merchant_details.name!;
      for (const view of ['late', 'paid_late'] as const) {
        if (view === 'paid_late') {
          await mine(quoted.confirmations_required, 'BITCOIN');
          await untilView(el, 'paid_late');
        }
        const next = textOf(partOf(el, 'held-next'));
        expect(next, `${view}: who decides`).to.include(merchant).and.match(locale === 'vi' ? /hoàn tất đơn hàng hay hoàn tiền/ : /complete your order or refund you/);
        expect(next, `${view}: contacted`).to.match(locale === 'vi' ? /liên hệ với bạn/ : /contacts you/);
        expect(textOf(partOf(el, 'reference')), `${view}: the payment's reference`).to.equal(quoted.payment_id);
        await expect(el).to.be.accessible();
      }
    });
  }

  it('lets the customer give up, with pay-checkout-failure carrying the signed failure URL', async () => {
    const { el, events, ref: payment_link_ref } = await payingCheckout('USDT:TRON', { locale: 'en' });
    await expireQuote((await paymentOf(payment_link_ref)).payment_id);
    await untilView(el, 'expired');
    press(el, 'leave-button');
    await until(el, 'pay-checkout-failure', () => events.some((e) => e.type === 'pay-checkout-failure'));
    const { failure_redirect_url } = await checkoutView(payment_link_ref);
    expect(events.find((e) => e.type === 'pay-checkout-failure')?.detail).to.include({ url: failure_redirect_url, reason: 'cancelled' });
    await expect(el).to.be.accessible();
  });
});
