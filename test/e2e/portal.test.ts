// The merchant portal, signed in, in Chromium: 120 orders searched, filtered and paged through; the merchant API's refund
// flow (row menu by keyboard → refund form checked with the contract's schema → a claim link, claimed with the test
// wallet and paid out → every refund of the order); money held for the merchant flagged on the list and decided on the
// order's page: a late payment accepted (the link paid, the success webhook delivered), another refunded in full to the
// address that paid, an overpayment's excess returned; the refund form saying what goes back in crypto before anything
// is sent; an order's webhook deliveries by HTTP status, opened to the receiver's answer and resent; date filters typed
// as the page writes a day; a server that does not answer, said in plain words, and a retry.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { PaymentLinkInput, PaymentLinkResource } from '../../src/contract/index.js';
import { sampleLink } from '../helpers/gateway.js';
import { assertAccessible, assertClean, baseUrl, browserForFile, createLinks, get, openSignedIn, orderWithPayment, paidOrder, post, receiverEndpoint, screenshot } from './support.js';

const browser = browserForFile();

/** This run's orders share a prefix, so the list can be narrowed to them whatever else the server holds. */
const RUN = `P${Date.now().toString(36).toUpperCase()}`;
const EMAIL = `thu.ha.${RUN.toLowerCase()}@example.vn`;
const SEEDED = 120;
let removeReceiver: () => Promise<void>;

interface Wallet {
  addresses: Record<string, string>;
  balances: { asset: string; network: string; balance: string }[];
}
const balance = async (asset: string, network: string) => (await get<Wallet>('/sandbox/wallet')).balances.find((b) => b.asset === asset && b.network === network)!.balance;

before(async () => {
  // 120 orders of this run: 119 links, one of them with a customer of her own, and one paid in BTC.
  const inputs: PaymentLinkInput[] = Array.from({ length: SEEDED - 1 }, (_, i) =>
    sampleLink({ merchant_order_id: `${RUN}-${String(i).padStart(3, '0')}`, success_url: `${baseUrl}/success`, failure_url: `${baseUrl}/failure` }),
  );
  inputs[57]!.billing_details = { billing_name: 'Phạm Thu Hà', billing_email: EMAIL };
  await createLinks(inputs);
  await paidOrder({ coin: ['BTC', 'BITCOIN'], link: { merchant_order_id: `${RUN}-BTC` } });
  removeReceiver = await receiverEndpoint();
});
after(() => removeReceiver());

/** The orders the list shows once it has loaded for a query with these parameters. */
async function listed(page: Page, params: Record<string, string> = {}): Promise<string[]> {
  await page.waitForFunction((wanted) => {
    const list = document.querySelector<HTMLElement>('[data-list="ready"]');
    const query = new URLSearchParams(list?.dataset.query ?? '');
    return list !== null && Object.entries(wanted).every(([name, value]) => query.get(name) === value);
  }, params);
  return page.locator('[data-list="ready"] tr[data-order]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order')!));
}

async function search(page: Page, text: string): Promise<string[]> {
  await page.getByLabel('Search', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  return listed(page, { q: text });
}

test('a merchant refunds part of a paid order from the row menu, is refused an over-refund, then refunds the rest', async () => {
  const orderId = await paidOrder();
  const tracked = await openSignedIn(browser(), '/portal', { how: 'credentials' });
  const { page } = tracked;
  const row = page.locator(`tr[data-order="${orderId}"]`);
  await row.waitFor();
  assert.equal(await page.locator('tbody tr').first().getAttribute('data-order'), orderId, 'newest first');
  assert.match((await row.locator('[data-status]').textContent())!, /paid/);
  assert.match((await row.locator('[data-crypto]').textContent())!, /^\d+(\.\d+)? USDT$/, 'the crypto that paid it');
  assert.match((await row.textContent())!, /Nguyễn Văn An.*an@example\.com/s, 'the customer');
  // An e-mail may break after its @, never mid-name: a break opportunity there, and none anywhere else by default.
  const email = row.locator('.email');
  assert.deepEqual(await email.evaluate((el) => [el.innerHTML.replace(/<!--[^>]*-->/g, ''), getComputedStyle(el).overflowWrap]), ['an@<wbr>example.com', 'break-word']);
  await assertAccessible(page, '/portal');

  // The row menu, by keyboard only.
  const dots = row.getByRole('button', { name: `Actions for order ${orderId}` });
  await dots.focus();
  await page.keyboard.press('Enter');
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  assert.equal(await dots.getAttribute('aria-expanded'), 'true');
  assert.equal(await focused(), 'Refund');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'View order');
  await page.keyboard.press('Escape');
  assert.equal(await dots.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Actions for order ${orderId}`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'Refund');
  await assertAccessible(page, '/portal with a row menu open');
  await screenshot(page, '10-portal-row-menu');
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: `Refund order ${orderId}` });
  await dialog.waitFor();
  // The contract's schema speaks before anything is sent; each error goes as its field changes.
  let refundPosts = 0;
  page.on('request', (request) => void (request.method() === 'POST' && request.url().endsWith('/refunds') && refundPosts++));
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  assert.match((await page.locator('#f-refund-amount-error').textContent())!, /whole number of VND/);
  assert.match((await page.locator('#f-refund-description-error').textContent())!, /must not be empty/);
  assert.match((await page.locator('#f-refund-reason_choice-error').textContent())!, /must not be empty/);
  assert.equal(refundPosts, 0);
  // Grouped as a Vietnamese merchant writes it: VND has no decimals, so it can only be a hundred thousand.
  await page.locator('#f-refund-amount').fill('100.000');
  assert.equal(await page.locator('#f-refund-amount-error').count(), 0, 'the amount’s error went as it changed');
  assert.equal(await page.locator('#f-refund-description-error').count(), 1, 'the others stay');

  // What goes back, before it is sent.
  const crypto = (await dialog.locator('[data-refund-crypto]').textContent())!;
  assert.match(crypto, /^\d+(\.\d+)? USDT$/);
  assert.equal(await dialog.locator('[data-refund-address]').textContent(), 'the address the customer gives on the claim page', 'to the customer’s own address, by default');
  await page.locator('#f-refund-reason_choice').selectOption('Goods damaged in delivery');
  await page.locator('#f-refund-description').fill('Hoàn tiền một gói cà phê bị vỡ');
  await screenshot(page, '11-refund-form');
  await dialog.getByRole('button', { name: 'Refund ₫100,000', exact: true }).click();

  // The refunds of the order, on its page.
  await page.getByRole('heading', { name: `Refunds of order ${orderId}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/portal/orders/${orderId}`);
  assert.equal(await dialog.isVisible(), false);
  assert.equal(await page.locator('[data-amount-to-refund]').getAttribute('data-amount-to-refund'), '260000');
  assert.equal(await page.locator('[data-order-status]').textContent(), 'partly refunded');
  assert.deepEqual(await page.locator('[data-refund-status]').allTextContents(), ['PENDING'], 'waiting for the customer’s claim');
  assert.equal(await page.locator('tr[data-refund] td').nth(6).textContent(), 'Goods damaged in delivery');
  assert.ok((await page.locator('[data-claim-url]').getAttribute('href'))?.includes('/refunds/'), 'a claim link for the customer');
  // The tester claims it with the test wallet's address; the payout confirms on chain.
  await page.locator('[data-refund-claim]').click();
  await page.getByRole('status').filter({ hasText: 'claimed with the test wallet' }).waitFor();
  await post('/sandbox/chain/mine', { blocks: 3, network: 'TRON' });
  await page.locator('[data-refund-status]', { hasText: 'SUCCESS' }).waitFor();

  // More than is left: the gateway refuses, its reason is shown by the field, and goes when the field changes.
  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.locator('#f-refund-amount').fill('300000');
  await page.locator('#f-refund-reason_choice').selectOption({ label: 'Other (in your words)' });
  await page.locator('#f-refund-refund_reason').fill('Khách đổi ý');
  await page.locator('#f-refund-description').fill('Hoàn thêm');
  // More than is left is stopped in the page, named in the page's format, and nothing is sent.
  await dialog.getByRole('button', { name: 'Refund ₫300,000', exact: true }).click();
  assert.equal(await page.locator('#f-refund-amount-error').textContent(), 'must be at most ₫260,000: what is left to refund from this payment');
  assert.match((await dialog.locator('[data-refund-preview="none"]').textContent())!, /At most ₫260,000 is left/);
  const problem = dialog.getByRole('alert');
  await assertAccessible(page, 'the refund form refusing an over-refund');
  await screenshot(page, '12-over-refund-refused');

  // Full: exactly what is left.
  await dialog.getByLabel('Full (what is left)').check();
  assert.equal(await page.locator('#f-refund-amount').inputValue(), '260,000');
  assert.equal(await page.locator('#f-refund-amount-error').count(), 0);
  assert.equal(await problem.count(), 0, 'the refusal named only the amount, which changed');
  await dialog.getByRole('button', { name: 'Refund ₫260,000', exact: true }).click();
  await page.locator('[data-amount-to-refund="0"]').waitFor();
  assert.deepEqual(await page.locator('[data-refund-status]').allTextContents(), ['SUCCESS', 'PENDING']);
  await screenshot(page, '13-refunds-listed', { fullPage: true });
  assert.equal(refundPosts, 2, 'two refunds reached the server, the over-refund did not (nor is the claim a refund)');

  // What the gateway holds agrees with what the pages show, after a reload and back on the list.
  await page.reload();
  await page.locator('[data-amount-to-refund="0"]').waitFor();
  await page.getByRole('link', { name: '← All transactions' }).click();
  await row.waitFor();
  assert.equal(await row.locator('[data-left]').getAttribute('data-left'), '0');
  assert.equal(await row.locator('[data-left]').textContent(), '₫0', 'nothing left, not the dash of an order never paid');
  assert.equal(await row.locator('[data-status]').textContent(), 'refunded', 'no longer read as paid');
  // Each status finds it or not: refunded, and neither paid nor partly refunded; combined with held money, nothing.
  await search(page, orderId);
  // A paid order's status is asked of the read API as `status=paid` and how much went back (`refunded=`).
  for (const [status, refunded, found] of [['refunded', 'fully', [orderId]], ['paid', 'none', []], ['partly_refunded', 'partly', []]] as const) {
    await page.getByLabel('Status').selectOption(status);
    assert.deepEqual(await listed(page, { q: orderId, status: 'paid', refunded }), found, status);
  }
  await page.getByLabel('Status').selectOption('refunded');
  await page.getByLabel('Holding money for you').check();
  assert.deepEqual(await listed(page, { q: orderId, status: 'paid', refunded: 'fully', held: 'true' }), []);
  assertClean(tracked);
});

test('search and filters find one order among 120, and paging walks all 120 once', async () => {
  const tracked = await openSignedIn(browser(), '/portal');
  const { page } = tracked;
  await listed(page);
  assert.deepEqual(await search(page, `${RUN}-042`), [`${RUN}-042`], 'part of an order id');
  assert.deepEqual(await search(page, `thu.ha.${RUN.toLowerCase()}`), [`${RUN}-057`], 'part of the customer’s e-mail');
  assert.match((await page.locator(`tr[data-order="${RUN}-057"]`).textContent())!, /Phạm Thu Hà/);
  const [btc] = (await get<{ payment_links: { payment_link_ref: string }[] }>(`/demo/api/transactions?q=${RUN}-BTC`)).payment_links;
  assert.deepEqual(await search(page, btc!.payment_link_ref), [`${RUN}-BTC`], 'a whole payment link ref');

  // Status and coin narrow the run's 120 to its one paid order; the filters are in the address.
  await search(page, RUN);
  await page.getByLabel('Status').selectOption('paid');
  await page.getByLabel('Coin').selectOption('BTC:BITCOIN');
  assert.deepEqual(await listed(page, { q: RUN, status: 'paid', asset: 'BTC', network: 'BITCOIN' }), [`${RUN}-BTC`]);
  assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams), { q: RUN, status: 'paid', asset: 'BTC:BITCOIN' });
  await assertAccessible(page, '/portal filtered');
  await screenshot(page, '16-portal-filtered');
  await page.reload();
  assert.deepEqual(await listed(page, { q: RUN, status: 'paid', asset: 'BTC' }), [`${RUN}-BTC`], 'a reload keeps the filters');

  // Nothing of the run was created before today.
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  const dayBefore = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
  // Typed as the page writes a day (day first), not the browser's mm/dd/yyyy; an ISO day reads too.
  const dayFirst = (iso: string) => `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  await search(page, RUN);
  await page.getByLabel('Created to (included)').fill(dayFirst(dayBefore));
  assert.deepEqual(await listed(page, { q: RUN, created_before: new Date(today.getFullYear(), today.getMonth(), today.getDate()).toISOString() }), []);
  await page.locator('[data-empty]', { hasText: 'No payment links match these filters' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Clear filters' }).count(), 1, 'one way to clear them, not two');
  await page.getByLabel('Created to (included)').fill(dayFirst(day));
  await page.getByLabel('Created from').fill(day);
  const midnight = new Date(today.getFullYear(), today.getMonth(), today.getDate()).toISOString();
  assert.equal((await listed(page, { q: RUN, created_from: midnight })).length, 25);
  await page.reload();
  await listed(page, { q: RUN, created_from: midnight });
  assert.deepEqual(
    [await page.getByLabel('Created from').inputValue(), await page.getByLabel('Created to (included)').inputValue()],
    [dayFirst(day), dayFirst(day)],
    'the address keeps the days, and the fields write them day first',
  );

  // Every order of the run once, 25 a page, newest first; Previous goes back to the same page.
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await search(page, RUN);
  const seen: string[] = [];
  const pages: string[][] = [];
  for (let number = 1; ; number++) {
    await page.locator(`[data-page="${number}"]`).waitFor();
    const rows = await listed(page, { q: RUN });
    pages.push(rows);
    seen.push(...rows);
    const next = page.getByRole('button', { name: 'Next page' });
    if (await next.isDisabled()) break;
    await next.click();
  }
  assert.deepEqual(pages.map((p) => p.length), [25, 25, 25, 25, 20]);
  assert.equal(await page.getByRole('status').filter({ hasText: /^Page 5/ }).textContent(), 'Page 5 of 5: links 101–120 of 120', 'the count of the whole list');
  assert.equal(new Set(seen).size, SEEDED, 'each of the 120 once');
  assert.ok(seen.every((id) => id.startsWith(RUN)));
  assert.equal(seen[0], `${RUN}-BTC`, 'the newest first');
  // The export holds the same list, in the same order, every page of it, with amounts as plain numbers.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export]').click()]);
  const file = await readFile((await download.path())!, 'utf8');
  assert.ok(file.startsWith('\uFEFF'), 'the export starts with a byte order mark (Excel reads the names as UTF-8)');
  const csv = file.slice(1).trimEnd().split('\r\n').map((line) => line.split(','));
  const header = csv[0]!;
  const column = (name: string) => csv.slice(1).map((cells) => cells[header.indexOf(name)]!);
  assert.deepEqual(column('merchant_order_id'), seen, 'the rows are the filtered list');
  assert.ok(column('amount_vnd').every((amount) => /^\d+$/.test(amount)));
  assert.equal(column('status')[0], 'paid');
  await page.getByRole('button', { name: 'Previous page' }).click();
  await page.locator('[data-page="4"]').waitFor();
  assert.deepEqual(await listed(page, { q: RUN }), pages[3]);
  // The page is in the address: a reload opens the same one, and Previous still goes back.
  assert.match(page.url(), /[?&]pages=[\w-]+\.[\w-]+\.[\w-]+(&|$)/);
  await page.reload();
  await page.locator('[data-page="4"]').waitFor();
  assert.deepEqual(await listed(page, { q: RUN }), pages[3]);
  await page.getByRole('button', { name: 'Previous page' }).click();
  await page.locator('[data-page="3"]').waitFor();
  assert.deepEqual(await listed(page, { q: RUN }), pages[2]);
  // Sorted by a column's header: oldest first, the exact reverse of the walk; the order is in the address too.
  await page.locator('[data-sort="created_at"]').click();
  assert.deepEqual(await listed(page, { q: RUN, sort: 'created_at' }), [...seen].reverse().slice(0, 25), 'oldest first, from the first page');
  assert.equal(await page.locator('th:has([data-sort="created_at"])').getAttribute('aria-sort'), 'ascending');
  assert.match(page.url(), /[?&]sort=created_at(&|$)/);
  await page.locator('[data-sort="amount"]').click();
  assert.equal((await listed(page, { q: RUN, sort: '-amount' })).length, 25);
  assert.equal(await page.locator('th:has([data-sort="amount"])').getAttribute('aria-sort'), 'descending');
  assertClean(tracked);
});

test('the search finds an order by whatever its customer quotes: ids, transaction, addresses, amount in any grouping, name, e-mail, phone', async () => {
  // An amount and a customer of this run alone: 1,2xx,xxx VND.
  const price = 1_200_000 + (Date.now() % 90_000);
  const amount = price + 10_000;
  const phone = `+84 90${String(Date.now() % 10_000_000).padStart(7, '0')}`;
  const { orderId, ref, payment } = await orderWithPayment({
    link: {
      amount,
      order_details: [{ id: 'sku-1', name: 'Cà phê hạt 2 kg', price, quantity: 1 }],
      billing_details: { billing_name: `Đặng Quỳnh Như ${RUN}`, billing_email: `nhu.${RUN.toLowerCase()}@example.vn`, billing_phone: phone },
    },
  });
  const [link] = (await get<{ payment_links: PaymentLinkResource[] }>(`/demo/api/transactions?q=${orderId}`)).payment_links;
  const txHash = link!.payments[0]!.transactions[0]!.tx_hash;
  const tracked = await openSignedIn(browser(), '/portal');
  const { page } = tracked;
  const grouped = (separator: string) => String(amount).replace(/\B(?=(\d{3})+$)/g, separator);
  const digits = phone.replace(/\D/g, '');
  const terms: Record<string, string> = {
    'order id': orderId,
    'link ref': ref,
    'payment id': payment.payment_id,
    'transaction hash': txHash,
    'its first 8 characters': txHash.slice(0, 8),
    'receiving address': payment.address,
    'amount': String(amount),
    'amount, vi': grouped('.'),
    'amount, en': grouped(','),
    'amount, spaced': grouped(' '),
    'name without diacritics': `dang quynh nhu ${RUN}`,
    'e-mail': `NHU.${RUN}@example.vn`,
    'phone at home': `0${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`,
  };
  for (const [what, q] of Object.entries(terms)) assert.deepEqual(await search(page, q), [orderId], `${what}: ${q}`);
  assertClean(tracked);
});

test('a late payment is flagged on the list and accepted on its order page: the link is paid, the success webhook delivered', async () => {
  const { orderId, ref } = await orderWithPayment({ late: true });
  const tracked = await openSignedIn(browser(), '/portal');
  const { page } = tracked;
  await search(page, orderId);
  const row = page.locator(`tr[data-order="${orderId}"]`);
  assert.equal(await row.locator('[data-held]').getAttribute('data-held'), '360000', 'held money flagged');
  assert.equal(await row.locator('[data-payment-status]').getAttribute('data-payment-status'), 'paid_late');
  await page.getByLabel('Holding money for you').check();
  assert.ok((await listed(page, { q: orderId, held: 'true' })).includes(orderId), 'and found by the "holding money" filter');
  await page.getByLabel('Status').selectOption('active');
  assert.deepEqual(await listed(page, { q: orderId, held: 'true', status: 'active' }), [orderId], 'which combines with a status');

  await row.getByRole('link', { name: orderId }).click();
  const held = page.locator(`[data-held-payment]`);
  await held.waitFor();
  assert.match((await held.textContent())!, /after its quote had run out/);
  // Where the quote's rate came from: the sandbox's fixed USDT rate, less the spread, grouped as this English page writes VND.
  const provenance = page.locator('tr[data-payment] [data-rate-provenance]').first();
  await provenance.locator('summary').click();
  assert.match((await provenance.textContent())!, /Market ₫26,350 per USDT, less a 0\.5% spread/);
  assert.match((await provenance.locator('[data-rate-source="fixed"]').textContent())!, /fixed: 26,350 as of/);
  await assertAccessible(page, 'an order holding a late payment');
  await screenshot(page, '17-order-held', { fullPage: true });
  // An accept cannot be undone: the page asks first, naming the money.
  await held.getByRole('button', { name: 'Accept as the order’s payment' }).click();
  const confirm = held.getByRole('group', { name: /^Accept ₫360,000/ });
  assert.match((await confirm.textContent())!, new RegExp(`Accept ₫360,000 \\(.+ USDT\\) as the payment of order ${orderId}\\?`));
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Accept ₫360,000', 'the confirmation has the focus');
  await confirm.getByRole('button', { name: 'Keep it held' }).click();
  assert.equal(await confirm.count(), 0, 'nothing accepted');
  await held.getByRole('button', { name: 'Accept as the order’s payment' }).click();
  await confirm.getByRole('button', { name: 'Accept ₫360,000' }).click();
  await page.getByRole('status').filter({ hasText: `as the payment of order ${orderId}: the order is paid.` }).waitFor();
  assert.equal(await page.locator('[data-order-status]').textContent(), 'paid');
  assert.equal(await held.count(), 0, 'nothing is held any more');
  assert.equal((await get<{ status: string }>(`/api/checkout/${ref}`)).status, 'paid');
  // The merchant's server hears it: payment.paid delivered to the demo's receiver (the page follows it).
  await page.locator('tr[data-type="payment.paid"] [data-delivery-status]', { hasText: 'delivered' }).waitFor();
  const receipts = (await get<{ receipts: { type: string; merchant_order_id: string; verified: boolean }[] }>('/demo/api/webhooks/receiver')).receipts;
  assert.ok(receipts.some((r) => r.type === 'payment.paid' && r.merchant_order_id === orderId && r.verified), 'received and verified');
  assertClean(tracked);
});

test('another late payment is refunded in full to the address that paid; the form shows the crypto that goes back before it is sent', async () => {
  const { orderId, sent } = await orderWithPayment({ late: true, coin: ['USDT', 'ETHEREUM'] });
  const before = await balance('USDT', 'ETHEREUM');
  const tracked = await openSignedIn(browser(), `/portal/orders/${orderId}`);
  const { page } = tracked;
  await page.getByRole('button', { name: 'Refund it' }).click();
  const dialog = page.getByRole('dialog', { name: `Refund order ${orderId}` });
  await dialog.waitFor();
  assert.equal(await page.locator('#f-refund-amount').inputValue(), '360,000', 'what is held');
  assert.equal(await page.locator('#f-refund-reason_choice').inputValue(), 'Paid after the quote expired');
  await dialog.getByLabel('Full (what is left)').check();
  assert.equal(await dialog.locator('[data-refund-crypto]').textContent(), `${sent} USDT`, 'all that came, before anything is sent');
  await dialog.getByLabel('The address that paid').check();
  assert.equal(await dialog.locator('[data-refund-address]').textContent(), (await get<Wallet>('/sandbox/wallet')).addresses.ETHEREUM);
  assert.match((await dialog.locator('[data-refund-rate]').textContent())!, new RegExp(`this payment's ${sent} USDT are worth`));
  await page.locator('#f-refund-description').fill('Khách thanh toán sau khi báo giá hết hạn');
  await assertAccessible(page, 'the refund form of a held payment');
  await screenshot(page, '18-refund-held-form');
  await dialog.getByRole('button', { name: 'Refund ₫360,000', exact: true }).click();
  await page.locator('[data-amount-to-refund="0"]').waitFor();
  assert.equal(await page.locator('[data-held-payment]').count(), 0);
  await page.locator('[data-refund-tx]').waitFor();
  assert.equal(await page.locator('[data-refund-tx]').getAttribute('title').then((hash) => /^0x[0-9a-f]{64}$/.test(hash ?? '')), true, 'a chain transaction');
  // On chain, to the address that paid: the wallet gets back all it sent, and the refund succeeds at its confirmations.
  await post('/sandbox/chain/mine', { blocks: 3, network: 'ETHEREUM' });
  await page.locator('[data-refund-status]', { hasText: 'SUCCESS' }).waitFor();
  assert.equal((Number(await balance('USDT', 'ETHEREUM')) - Number(before)).toFixed(2), Number(sent).toFixed(2));
  assertClean(tracked);
});

test('an overpaid order shows the excess held and refunds just that', async () => {
  const { orderId } = await orderWithPayment({ percent: 110, coin: ['BTC', 'BITCOIN'] });
  const tracked = await openSignedIn(browser(), '/portal');
  const { page } = tracked;
  await search(page, orderId);
  const row = page.locator(`tr[data-order="${orderId}"]`);
  assert.equal(await row.locator('[data-payment-status]').textContent(), 'paid, overpaid');
  const excess = Number(await row.locator('[data-held]').getAttribute('data-held'));
  assert.ok(excess >= 36_000 && excess < 37_000, `about 10% of 360.000 ₫ held: ${excess}`);
  await row.getByRole('link', { name: orderId }).click();
  const held = page.locator('[data-held-payment]');
  await held.waitFor();
  assert.match((await held.textContent())!, /Overpaid: the excess is held for you/);
  assert.equal(await held.getByRole('button', { name: /Accept/ }).count(), 0, 'a paid order takes no accept');
  await held.getByRole('button', { name: 'Refund the excess' }).click();
  const dialog = page.getByRole('dialog', { name: `Refund order ${orderId}` });
  await dialog.waitFor();
  assert.equal(await page.locator('#f-refund-amount').inputValue(), excess.toLocaleString('en-US'));
  const crypto = (await dialog.locator('[data-refund-crypto]').textContent())!;
  assert.match(crypto, /^0\.000\d+ BTC$/);
  await page.locator('#f-refund-description').fill('Trả lại phần chuyển thừa');
  await dialog.getByLabel('The address that paid').check();
  const before = await balance('BTC', 'BITCOIN');
  await dialog.getByRole('button', { name: `Refund ₫${excess.toLocaleString('en-US')}`, exact: true }).click();
  await page.locator('[data-amount-to-refund="360000"]').waitFor();
  assert.equal(await held.count(), 0, 'the excess went back; the order keeps its 360.000 ₫');
  await page.locator('[data-refund-tx]').waitFor();
  await post('/sandbox/chain/mine', { blocks: 2, network: 'BITCOIN' });
  await page.locator('[data-refund-status]', { hasText: 'SUCCESS' }).waitFor();
  assert.equal((Number(await balance('BTC', 'BITCOIN')) - Number(before)).toFixed(8), Number(crypto.split(' ')[0]).toFixed(8), 'the chain sent what the form said');
  assertClean(tracked);
});

test('an order that holds no money offers no refund', async () => {
  const link = sampleLink({ success_url: `${baseUrl}/success`, failure_url: `${baseUrl}/failure` });
  await post('/demo/api/links', link);
  const tracked = await openSignedIn(browser(), '/portal');
  const row = tracked.page.locator(`tr[data-order="${link.merchant_order_id}"]`);
  await row.getByRole('button', { name: /^Actions for order/ }).click();
  const refund = row.getByRole('menuitem', { name: /^Refund/ });
  assert.equal(await refund.getAttribute('aria-disabled'), 'true');
  assert.equal(await refund.textContent().then((t) => t?.trim()), 'Refund (nothing to refund)');
  // Playwright would wait for an aria-disabled item to become enabled; a person can still press it.
  await refund.click({ force: true });
  assert.equal(await tracked.page.getByRole('dialog').count(), 0);
  assertClean(tracked);
});

test('an order page lists its webhook deliveries by HTTP status, opens one to the receiver’s answer, and resends it', async () => {
  const orderId = await paidOrder();
  const tracked = await openSignedIn(browser(), `/portal/orders/${orderId}`);
  const { page } = tracked;
  const paid = page.locator('tr[data-delivery][data-type="payment.paid"]');
  await paid.locator('[data-delivery-status]', { hasText: 'delivered' }).waitFor();
  assert.equal(await paid.locator('[data-last-response]').textContent(), '200', "the receiver's HTTP status, not a word");
  const eventId = (await paid.getAttribute('data-event-id'))!;
  const receiver = `${new URL(baseUrl).origin}/demo/webhook-receiver`;

  await page.getByRole('button', { name: `Details of payment.paid to ${receiver}` }).click();
  const detail = page.locator('tr.detail-row delivery-detail');
  await detail.locator('[data-attempt="1"] [data-response-body]').waitFor();
  assert.equal(JSON.parse((await detail.locator('[data-payload]').textContent())!).data.payment_link.merchant_order_id, orderId);
  assert.deepEqual(JSON.parse((await detail.locator('[data-attempt="1"] [data-response-body]').textContent())!), { received: eventId });
  await assertAccessible(page, 'an order with a delivery opened');

  await page.getByRole('button', { name: `Resend payment.paid to ${receiver}` }).click();
  await page.getByRole('status').filter({ hasText: `payment.paid (${eventId}) queued again` }).waitFor();
  await paid.locator('[data-attempts]', { hasText: '2' }).waitFor();
  await detail.locator('[data-attempt="2"] [data-response-body]').waitFor();
  const receipts = (await get<{ receipts: { event_id: string; verified: boolean }[] }>('/demo/api/webhooks/receiver')).receipts;
  assert.deepEqual(receipts.filter((r) => r.event_id === eventId).map((r) => r.verified), [true, true], 'the same event, received twice');
  assertClean(tracked);
});

test('when the server does not answer, the list says so in plain words, and Retry brings it back', async () => {
  const tracked = await openSignedIn(browser(), '/portal');
  const { page } = tracked;
  await listed(page);
  await page.route('**/demo/api/transactions?*', (route) => route.abort('connectionrefused'));
  await page.getByLabel('Status').selectOption('paid');
  const box = page.locator('portal-transactions .error-box');
  await box.waitFor();
  const said = (await box.textContent())!;
  assert.match(said, /The sandbox server did not answer/);
  assert.doesNotMatch(said, /`/, 'no markdown on the page');
  await assertAccessible(page, 'the list when the server does not answer');
  await page.unroute('**/demo/api/transactions?*');
  await box.getByRole('button', { name: 'Retry' }).click();
  await listed(page, { status: 'paid' });
  assert.equal(await box.count(), 0, 'the error goes once the list loads');
  assertClean(tracked);
});
