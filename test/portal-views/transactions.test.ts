// The portal's list of payment links (<portal-transactions>) with fixed links: each order's status in a merchant's
// words, money as the page's language writes it, and the day filters read day first.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PaymentLinkList } from '../../src/contract/index.js';
import { TransactionsPage } from '../../demo/scripts/portal/transactions-page.js';
import { ORDERS, pageIn, shown, stubFetch, typeInto, type Sent } from './helpers/portal.js';

customElements.define('portal-transactions', TransactionsPage);

const LIST: PaymentLinkList = { payment_links: Object.values(ORDERS), next_cursor: null, total: 5 };

let server: { sent: Sent[]; restore: () => void };
beforeEach(() => {
  server = stubFetch(() => LIST);
  history.replaceState(null, '', location.pathname);
});
afterEach(() => {
  server.restore();
  pageIn('en');
});

async function list(): Promise<TransactionsPage> {
  const el = await fixture<TransactionsPage>(html`<portal-transactions></portal-transactions>`);
  await waitUntil(() => el.querySelector('[data-list="ready"]'), 'the list shows');
  return el;
}

const row = (el: Element, orderId: string) => el.querySelector(`tr[data-order="${orderId}"]`)!;
const cell = (el: Element, orderId: string, selector: string) => shown(row(el, orderId).querySelector(selector));

describe('the portal: transactions', () => {
  it("names each order's status: paid, partly refunded, refunded, holding money, expired", async () => {
    const el = await list();
    expect(cell(el, 'ORD-PAID', '[data-status]')).to.equal('paid');
    expect(cell(el, 'ORD-PART', '[data-status]')).to.equal('partly refunded');
    expect(cell(el, 'ORD-REFUNDED', '[data-status]')).to.equal('refunded');
    expect(cell(el, 'ORD-EXPIRED', '[data-status]')).to.equal('expired');
    expect(cell(el, 'ORD-HELD', '[data-status]')).to.equal('expired');
    expect(cell(el, 'ORD-HELD', '[data-held]'), 'the held money is flagged').to.equal('Holding ₫100,000');
    expect(row(el, 'ORD-PAID').querySelector('[data-held]'), 'nothing held').to.equal(null);
    expect(cell(el, 'ORD-HELD', '[data-payment-status]')).to.equal('paid late (held)');
    // Left to refund: what is left once something went back (none: 0), a dash where nothing was ever paid.
    expect(cell(el, 'ORD-REFUNDED', '[data-left]')).to.equal('₫0');
    expect(cell(el, 'ORD-EXPIRED', '[data-left]')).to.equal('—');
    expect(shown(el.querySelector('[data-page]'))).to.equal('Page 1 of 1: links 1–5 of 5');
  });

  it('writes VND as the page does: 530.000 ₫ in Vietnamese, ₫530,000 in English', async () => {
    pageIn('vi');
    const vi = await list();
    expect(shown(row(vi, 'ORD-PART').querySelector('td.num'))).to.equal('530.000 ₫');
    expect(cell(vi, 'ORD-PART', '[data-left]')).to.equal('430.000 ₫');
    expect(cell(vi, 'ORD-HELD', '[data-held]')).to.equal('Holding 100.000 ₫');
    vi.remove();

    pageIn('en');
    const en = await list();
    expect(shown(row(en, 'ORD-PART').querySelector('td.num'))).to.equal('₫530,000');
    expect(cell(en, 'ORD-PART', '[data-left]')).to.equal('₫430,000');
  });

  for (const language of ['vi', 'en'] as const) {
    it(`reads the day filters day first (${language}): 2/1/2026 is the second of January`, async () => {
      pageIn(language);
      history.replaceState(null, '', `${location.pathname}?to=2026-11-22`);
      const el = await list();
      const from = el.querySelector<HTMLInputElement>('#f-filter-from')!;
      const to = el.querySelector<HTMLInputElement>('#f-filter-to')!;
      expect(to.value, 'a day from the address, written day first').to.equal('22/11/2026');
      expect(shown(el.querySelector('#f-filter-from-hint'))).to.equal('Day/month/year, such as 22/11/2026.');

      typeInto(from, '2/1/2026');
      await waitUntil(() => new URLSearchParams(location.search).get('from') === '2026-01-02', 'the list follows the day typed');
      const asked = server.sent.at(-1)!.url.searchParams.get('created_from')!;
      expect(new Date(asked).getDate(), 'asked from local midnight of that day').to.equal(2);
      expect(new Date(asked).getMonth()).to.equal(0);

      typeInto(from, '31/02/2026');
      await el.updateComplete;
      expect(shown(el.querySelector('#f-filter-from-error')), 'a day that does not exist').to.equal('must be a day, such as 22/11/2026');
      expect(new URLSearchParams(location.search).get('from'), 'the list keeps the last day that read').to.equal('2026-01-02');
    });
  }
});
