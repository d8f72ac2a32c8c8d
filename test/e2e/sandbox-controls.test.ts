// The tester's controls on the demo page that test/e2e/checkout.test.ts does not walk: on TRON (an address-only QR)
// the wallet takes the amount from the checkout, so "Pay 50%" works; N blocks confirm no sooner than N; paying the
// address of a quote the customer moved on from is held as paid late; the link expires now. Each control says what
// it leads to, and each is reached by its control alone: mining on demand, never waiting for a timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { shareOf } from '../../demo/scripts/wallet/payment-qr.js';
import {
  assertAccessible,
  assertClean,
  browserForFile,
  card,
  choosePayment,
  createLinkInBuilder,
  elementAttribute,
  get,
  mine,
  openSignedIn,
  receiverEndpoint,
  scanCheckoutQr,
  screenshot,
  waitForView,
  walletPay,
} from './support.js';

const browser = browserForFile();

interface View {
  status: string;
  merchant_order_id: string;
  payment: { payment_id: string; status: string; received_crypto: string; transactions: { confirmations: number }[] } | null;
}

const description = (page: Page, selector: string) =>
  page.locator(selector).evaluate((button) => document.getElementById(button.getAttribute('aria-describedby')!)?.textContent ?? '');

async function mineBlocks(page: Page, blocks: number): Promise<void> {
  await page.locator('[name="wallet.blocks"]').fill(String(blocks));
  await mine(page);
}

test('on TRON the wallet takes the amount from the checkout: "Pay 50%" is underpaid once mined, and N blocks confirm no sooner than N', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const ref = await createLinkInBuilder(page);
  await choosePayment(page, 'USDT:TRON');
  await scanCheckoutQr(page);
  const due = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), due, 'the QR holds only the address; the amount is the checkout’s');
  for (const [control, leadsTo] of [
    ['[data-pay="exact"]', /confirming at once, then paid/],
    ['[data-pay="partial"]', /underpaid once mined/],
    ['[data-pay="overpay"]', /overpaid once mined: the excess is held/],
    ['[data-pay="late"]', /paid late once mined: held for the merchant/],
    ['[data-expire]', /expired: the checkout offers a new quote/],
    ['[data-mine]', /3 blocks confirm a payment on TRON/],
    ['[data-expire-link]', /link expired/],
  ] as const) {
    assert.match(await description(page, control), leadsTo, control);
  }
  await assertAccessible(page, 'the demo page with every sandbox control');
  await page.locator('test-wallet .pay').scrollIntoViewIfNeeded();
  await screenshot(page, '19-sandbox-controls');

  await walletPay(page, 'partial');
  const seen = await get<View>(`/api/checkout/${ref}`);
  assert.deepEqual([seen.payment!.status, seen.payment!.received_crypto], ['awaiting_payment', shareOf(due, 6, 50)], 'seen at once, before any block');
  await mineBlocks(page, 2);
  const twoBlocks = await get<View>(`/api/checkout/${ref}`);
  assert.equal(twoBlocks.payment!.transactions[0]!.confirmations, 2);
  assert.equal(twoBlocks.payment!.status, 'awaiting_payment', 'two of three confirmations: not yet counted');
  await mineBlocks(page, 1);
  await waitForView(page, 'underpaid');
  assert.equal((await get<View>(`/api/checkout/${ref}`)).payment!.status, 'underpaid');
  assertClean(tracked);
});

test('paying the address of a quote the customer moved on from is held for the merchant as paid late', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const ref = await createLinkInBuilder(page);
  await choosePayment(page, 'USDT:TRON');
  const first = await scanCheckoutQr(page);
  await page.locator('[data-expire]').click();
  await waitForView(page, 'expired');
  await page.locator('pay-checkout [part="new-quote-button"]').click();
  await waitForView(page, 'payment');
  const second = await scanCheckoutQr(page);
  assert.notEqual(second, first, 'a new quote, a new address');
  const earlier = page.locator('[data-pay-earlier]');
  assert.match(await description(page, '[data-pay-earlier]'), /paid late once mined.*held for the merchant/);
  await earlier.click();
  await page.locator('.sent li', { hasText: 'Pay the earlier address' }).waitFor();
  await mineBlocks(page, 3);
  const { payment_links } = await get<{ payment_links: { payments: { address: string; status: string; held_vnd: number }[] }[] }>(`/demo/api/transactions?q=${ref}`);
  const [old, current] = payment_links[0]!.payments;
  assert.deepEqual([old!.address, old!.status, old!.held_vnd], [first, 'paid_late', 530_000], 'held for the merchant');
  assert.deepEqual([current!.address, current!.status], [second, 'awaiting_payment'], 'the customer’s quote is untouched');
  assertClean(tracked);
});

test('"Expire the link now": the checkout says the link has expired, and the merchant gets payment_link.expired', async (t) => {
  t.after(await receiverEndpoint());
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const ref = await createLinkInBuilder(page);
  await choosePayment(page, 'BTC:BITCOIN');
  await page.locator('[data-expire-link]').click();
  await page.locator('[data-control-status]', { hasText: 'The link is expired.' }).waitFor();
  // Its open quote closed with it: the card says the link has expired, and offers only the way back to the merchant.
  await waitForView(page, 'error');
  assert.match((await card(page).textContent()) ?? '', /This payment link has expired/);
  assert.equal(await page.locator('pay-checkout [part="new-quote-button"]').count(), 0);
  const view = await get<View>(`/api/checkout/${ref}`);
  assert.deepEqual([view.status, view.payment!.status], ['expired', 'expired'], 'the link and its open quote');
  await assertAccessible(page, 'the demo page with the link expired');
  // The merchant's receiver hears it (delivered by the gateway's worker: the page asks until it has).
  const receiver = '/demo/api/webhooks/receiver';
  await page.waitForFunction(
    async ([url, orderId]) => {
      const { receipts } = (await (await fetch(url!)).json()) as { receipts: { type: string; merchant_order_id: string }[] };
      return receipts.some((r) => r.type === 'payment_link.expired' && r.merchant_order_id === orderId);
    },
    [receiver, view.merchant_order_id],
    { polling: 250 },
  );
  const { receipts } = await get<{ receipts: { type: string; merchant_order_id: string }[] }>(receiver);
  assert.deepEqual(receipts.filter((r) => r.merchant_order_id === view.merchant_order_id).map((r) => r.type).sort(), ['payment.expired', 'payment_link.expired']);
  await page.locator('pay-checkout [part="leave-button"]').click();
  await page.waitForURL(/\/failure\?/);
  await page.locator('[data-verified="true"]').waitFor();
  assertClean(tracked);
});
