// An order's page (<portal-order>) and the refund form (<refund-dialog>) with fixed data: the status in words, the
// accept of held money confirmed with its amount before anything is sent, and the refund amount typed as the page's
// language writes VND.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PaymentLinkResource, RefundList, RefundResource } from '../../src/contract/index.js';
import type { OrderView } from '../../demo/routes/orders.js';
import { OrderPage } from '../../demo/scripts/portal/order-page.js';
import { RefundDialog } from '../../demo/scripts/portal/refund-dialog.js';
import { choose, ORDERS, pageIn, refund, shown, stubFetch, typeInto, type Sent } from './helpers/portal.js';

customElements.define('portal-order', OrderPage);
customElements.define('refund-dialog', RefundDialog);

const orderOf = (link: PaymentLinkResource): OrderView => ({
  merchant_order_id: link.merchant_order_id,
  payment_links: [link],
  amountToRefund: link.amountToRefund,
  refunds: [],
  deliveries: [],
  payout_wallets: { daily_cap_vnd: 100_000_000, sent_last_24h_vnd: 0, wallets: [] },
});

let server: { sent: Sent[]; restore: () => void } | undefined;
afterEach(() => {
  server?.restore();
  pageIn('en');
});

async function orderPage(link: PaymentLinkResource): Promise<OrderPage> {
  // The accept answers with the link paid; the order is read as it was (the page only tells what the accept said).
  server = stubFetch((method, url) => (method === 'POST' ? { ...link, status: 'paid' } : url.pathname.startsWith('/demo/api/orders/') ? orderOf(link) : undefined));
  const el = await fixture<OrderPage>(html`<portal-order order-id=${link.merchant_order_id}></portal-order>`);
  await waitUntil(() => el.querySelector('[data-order-status]'), 'the order shows');
  return el;
}

const button = (el: Element, text: string) => [...el.querySelectorAll('button')].find((b) => shown(b) === text);

describe('the portal: an order', () => {
  it('names the status of a partly refunded and of a refunded order', async () => {
    expect(shown((await orderPage(ORDERS.partlyRefunded)).querySelector('[data-order-status]'))).to.equal('partly refunded');
    server!.restore();
    expect(shown((await orderPage(ORDERS.refunded)).querySelector('[data-order-status]'))).to.equal('refunded');
  });

  it('writes a payment’s rate as the page writes VND: 26.218,25 ₫ in Vietnamese, ₫26,218.25 in English', async () => {
    const rates = (el: Element) => [...el.querySelectorAll('td')].map(shown).filter((text) => text.includes(' per USDT'));
    pageIn('vi');
    expect(rates(await orderPage(ORDERS.partlyRefunded))).to.deep.equal(['26.218,25 ₫ per USDT']);
    server!.restore();
    pageIn('en');
    expect(rates(await orderPage(ORDERS.partlyRefunded))).to.deep.equal(['₫26,218.25 per USDT']);
  });

  it('asks before accepting held money, naming the amount, and sends the accept only when confirmed', async () => {
    pageIn('vi');
    const el = await orderPage(ORDERS.holding);
    expect(shown(el.querySelector('[data-held-vnd]'))).to.equal('100.000 ₫');
    button(el, 'Accept as the order’s payment')!.click();
    await el.updateComplete;
    const confirm = el.querySelector('[data-accept-confirm]');
    expect(shown(confirm)).to.include('Accept 100.000 ₫ (3.81 USDT) as the payment of order ORD-HELD?').and.include('cannot be undone');
    expect(server!.sent.filter((s) => s.method === 'POST'), 'nothing sent yet').to.deep.equal([]);

    button(el, 'Keep it held')!.click();
    await el.updateComplete;
    expect(el.querySelector('[data-accept-confirm]'), 'kept held').to.equal(null);
    expect(server!.sent.filter((s) => s.method === 'POST')).to.deep.equal([]);

    button(el, 'Accept as the order’s payment')!.click();
    await el.updateComplete;
    button(el, 'Accept 100.000 ₫')!.click();
    await waitUntil(() => shown(el.querySelector('#order-notice')).startsWith('Accepted'), 'the accept is told');
    expect(server!.sent.filter((s) => s.method === 'POST').map((s) => s.url.pathname)).to.deep.equal(['/demo/api/payments/pay_held/accept']);
  });

  it("shows the merchant's payout wallet and a refund whose payout waits for the daily cap, saying why, with a Cancel", async () => {
    pageIn('en');
    const waiting: RefundResource = {
      ...refund(100_000, { refund_id: 'rf_waits', refund_status: 'PENDING' }),
      payment_id: 'pay_1',
      merchant_order_id: ORDERS.paid.merchant_order_id,
      payment_link_ref: ORDERS.paid.payment_link_ref,
      asset: 'ETH',
      network: 'ETHEREUM',
      amount_crypto: '0.001',
      payment_received_crypto: '0.0036',
      payment_value_vnd: 360_000,
      send_to: 'payer',
      destination: '0x00000000000000000000000000000000000000aa',
      claim_expires_at: null,
      description: 'returned',
      failure_reason: null,
      retry_of: null,
      payout_waiting: { reason: 'daily_cap', detail: 'the daily cap of 200000 VND would be passed', until: '2026-11-23T08:00:00.000Z' },
      history: [{ event: 'requested', at: '2026-11-22T08:00:00.000Z', detail: null }],
    };
    const view: OrderView = {
      ...orderOf(ORDERS.paid),
      refunds: [waiting],
      payout_wallets: {
        daily_cap_vnd: 200_000,
        sent_last_24h_vnd: 150_000,
        wallets: [{ network: 'ETHEREUM', address: '0x9700FACf5b1E5707e6cd3e1871A44A87Df48F354', derivation_path: "m/44'/60'/0'/0/0", balances: [{ asset: 'ETH', balance: '1.5' }, { asset: 'USDT', balance: null }] }],
      },
    };
    server = stubFetch((method, url) => (url.pathname.startsWith('/demo/api/orders/') ? view : undefined));
    const el = await fixture<OrderPage>(html`<portal-order order-id=${view.merchant_order_id}></portal-order>`);
    await waitUntil(() => el.querySelector('[data-refund="rf_waits"]'), 'the refund shows');
    expect(shown(el.querySelector('[data-payout-wallet="ETHEREUM"]'))).to.equal("ETHEREUM: 0x9700FACf5b1E5707e6cd3e1871A44A87Df48F354 (m/44'/60'/0'/0/0), holds 1.5 ETH, ? USDT");
    expect(shown(el.querySelector('[data-payout-wallets] p'))).to.include('₫150,000 sent of ₫200,000 in the last 24 h');
    expect(shown(el.querySelector('[data-refund-waiting]'))).to.match(/^Waiting to be sent: the daily cap of 200000 VND would be passed \(from .+\)$/);
    expect(el.querySelector('[data-refund="rf_waits"] [data-refund-cancel]'), 'a waiting payout can be cancelled').to.not.equal(null);
    await expect(el).to.be.accessible();
  });
});

describe('the portal: the refund form', () => {
  const refunds: RefundList = { amountToRefund: 330_000, refundDetails: [] };

  async function refundForm(): Promise<{ el: RefundDialog; amount: HTMLInputElement }> {
    server = stubFetch(() => refunds);
    const el = await fixture<RefundDialog>(html`<refund-dialog></refund-dialog>`);
    el.open({ orderId: 'ORD-PART', links: [ORDERS.partlyRefunded] });
    await waitUntil(() => el.querySelector('dialog')?.open, 'the form opens');
    choose(el.querySelector<HTMLSelectElement>('#f-refund-reason_choice')!, 'Order cancelled');
    typeInto(el.querySelector<HTMLInputElement>('#f-refund-description')!, 'cancelled by phone');
    return { el, amount: el.querySelector<HTMLInputElement>('#f-refund-amount')! };
  }

  const submit = (el: Element) => el.querySelector<HTMLButtonElement>('button[type="submit"]')!;

  for (const [language, typed, label, most] of [
    ['vi', '100.000', 'Refund 100.000 ₫', 'must be at most 430.000 ₫: what is left to refund from this payment'],
    ['en', '100,000', 'Refund ₫100,000', 'must be at most ₫430,000: what is left to refund from this payment'],
  ] as const) {
    it(`takes ${typed} as a hundred thousand VND on a ${language} page, and says an over-refund in its format`, async () => {
      pageIn(language);
      const { el, amount } = await refundForm();
      typeInto(amount, '999.999.999');
      await el.updateComplete;
      submit(el).click();
      await waitUntil(() => el.querySelector('#f-refund-amount-error'), 'the amount is refused');
      expect(shown(el.querySelector('#f-refund-amount-error'))).to.equal(most);

      typeInto(amount, typed);
      await el.updateComplete;
      expect(shown(submit(el)), 'the button names what goes back').to.equal(label);
      submit(el).click();
      await waitUntil(() => server!.sent.some((s) => s.method === 'POST'), 'the refund is sent');
      const sent = server!.sent.find((s) => s.method === 'POST')!;
      expect(sent.url.pathname).to.equal('/demo/api/orders/ORD-PART/refunds');
      expect((sent.body as { amount: unknown }).amount).to.equal(100_000);
    });
  }
});
