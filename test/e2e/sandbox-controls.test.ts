// The tester's controls on the demo page that test/e2e/checkout.test.ts does not walk: on TRON (an address-only QR)
// the wallet takes the amount from the checkout, so "Pay 50%" works; N blocks confirm no sooner than N; paying the
// address of a quote the customer moved on from is held as paid late; the link expires now. Each control says what
// it leads to, and each is reached by its control alone: mining on demand, never waiting for a timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { shareOf } from '../../demo/scripts/wallet/payment-qr.js';
import { sampleLink } from '../helpers/gateway.js';
import { assertAccessible, assertClean, browserForFile, card, choosePayment, createLinkInBuilder, elementAttribute, get, mine, openPage, openSignedIn, post, receiverEndpoint, scanCheckoutQr, scannedInBuilder, screenshot, waitForView, walletPay } from './support.js';

const browser = browserForFile();

interface View {
  status: string;
  merchant_order_id: string;
  payment: { payment_id: string; status: string; received_crypto: string; transactions: { confirmations: number }[] } | null;
}

/** A control's accessible description: the "→ leads to" line beside it, in its own document or shadow root. */
const description = (page: Page, selector: string) =>
  page.locator(selector).evaluate((button) => (button.getRootNode() as Document | ShadowRoot).getElementById(button.getAttribute('aria-describedby')!)?.textContent ?? '');

async function mineBlocks(page: Page, blocks: number): Promise<void> {
  await page.locator('[name="wallet.blocks"]').fill(String(blocks));
  await mine(page);
}

test('on TRON the wallet takes the amount from the checkout: "Pay 50%" is underpaid once mined, and N blocks confirm no sooner than N', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const { ref } = await scannedInBuilder(page, 'USDT:TRON');
  const due = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), due, 'the QR holds only the address; the amount is the checkout’s');
  for (const [control, leadsTo] of [
    ['[data-pay="exact"]', /confirming at once, then paid/],
    ['[data-pay="partial"]', /underpaid once mined/],
    ['[data-pay="overpay"]', /overpaid once mined: the excess is held/],
    ['[data-pay="late"]', /paid late once mined: held for the merchant/],
    ['[data-expire]', /expired: the checkout offers a new quote/],
    ['[data-mine]', /3 blocks confirm a payment on TRON/],
    ['[data-faucet]', /topped up/],
    ['[data-read]', /fill step 2/],
    ['[data-tester-expire-link]', /link expired/],
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
  const { ref, address: first } = await scannedInBuilder(page, 'USDT:TRON');
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
  await page.locator('[data-tester-expire-link]').click();
  await page.locator('[data-tester-status]', { hasText: 'The link has expired, and its open quote with it.' }).waitFor();
  // Its open quote closed with it: the card says the link has expired, and offers only the way back to the merchant.
  await waitForView(page, 'error');
  assert.match((await card(page).textContent()) ?? '', LINK_EXPIRED);
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

// ---- the tester panel on the hosted checkout page: every status from the page itself, no second tab ----

/** A link as the merchant's server makes it, opened on the hosted page, with a USDT payment on TRON under way. */
async function hostedPayment() {
  const { payment_link_ref: ref } = await post<{ payment_link_ref: string }>('/demo/api/links', sampleLink());
  const requests: string[] = [];
  const tracked = await openPage(browser(), `/checkout?ref=${ref}`, undefined, {
    setUp: async (page) => {
      page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    },
  });
  await choosePayment(tracked.page, 'USDT:TRON');
  await tracked.page.locator('tester-panel [data-following]', { hasText: 'awaiting payment' }).waitFor();
  return { ...tracked, ref, requests };
}

/** Presses a control of the panel and waits for it to say it is done. */
async function press(page: Page, control: string, done: RegExp): Promise<void> {
  await page.locator(`tester-panel ${control}`).click();
  await page.locator('tester-panel [data-tester-status]', { hasText: done }).waitFor();
}

/** The expired-link message, in the link's language. */
const LINK_EXPIRED = /This payment link has expired|Liên kết thanh toán đã hết hạn/;

const paymentOf = async (ref: string) => (await get<View & { payment: { overpaid: boolean; amount_crypto: string; address: string } }>(`/api/checkout/${ref}`)).payment!;

for (const [control, view, expect] of [
  ['exact', 'paid', { status: 'paid', overpaid: false }],
  ['partial', 'underpaid', { status: 'underpaid', overpaid: false }],
  ['overpay', 'paid', { status: 'paid', overpaid: true }],
] as const) {
  test(`hosted page: the panel's "${control}" payment, then "Mine enough", leads the checkout to ${view}${expect.overpaid ? ' (overpaid)' : ''}`, async () => {
    const tracked = await hostedPayment();
    const { page, ref } = tracked;
    if (control === 'exact') {
      await assertAccessible(page, 'the hosted page with the tester panel');
      await screenshot(page, '08b-hosted-tester-panel', { fullPage: true });
    }
    await press(page, `[data-tester-pay="${control}"]`, /^Sent/);
    await press(page, '[data-tester-mine-enough]', /^Mined 3 blocks on TRON/);
    await waitForView(page, view);
    const payment = await paymentOf(ref);
    assert.deepEqual({ status: payment.status, overpaid: payment.overpaid }, expect);
    if (control === 'partial') assert.equal(payment.received_crypto, shareOf(payment.amount_crypto, 6, 50));
    assertClean(tracked);
  });
}

test('hosted page: "Expire the quote now" shows the expired quote; the earlier address is offered at once and its payment is held as paid late', async () => {
  const tracked = await hostedPayment();
  const { page, ref } = tracked;
  const first = await paymentOf(ref);
  assert.match(await description(page, 'tester-panel [data-tester-expire-quote]'), /expired quote: the checkout offers a new quote/);
  await press(page, '[data-tester-expire-quote]', /quote has expired/);
  await waitForView(page, 'expired');
  assert.equal(await page.locator('pay-checkout [part="new-quote-button"]').count(), 1, 'the link is active: a new quote is offered');
  await page.locator('pay-checkout [part="new-quote-button"]').click();
  await waitForView(page, 'payment');
  // No QR read, no second tab: the panel follows the element to the new quote and keeps the one it left.
  const earlier = page.locator('tester-panel [data-tester-pay-earlier]');
  await earlier.waitFor();
  assert.match(await description(page, 'tester-panel [data-tester-pay-earlier]'), /paid late once mined.*held for the merchant/);
  await press(page, '[data-tester-pay-earlier]', /earlier address/);
  await press(page, '[data-tester-mine-enough]', /^Mined/);
  const { payment_links } = await get<{ payment_links: { payments: { address: string; status: string }[] }[] }>(`/demo/api/transactions?q=${ref}`);
  const [old, current] = payment_links[0]!.payments;
  assert.deepEqual([old!.address, old!.status], [first.address, 'paid_late']);
  assert.equal(current!.status, 'awaiting_payment', 'the customer’s new quote is untouched');
  // The panel knows the link from the page: it never asks the gateway anything by an on-chain address.
  assert.deepEqual(tracked.requests.filter((r) => r.includes('/sandbox/addresses/')), []);
  assert.ok(tracked.requests.includes(`POST /sandbox/payments/${first.payment_id}/expire-quote`));
  assertClean(tracked);
});

test('hosted page: "Expire the link now" with a quote open: the card says the link has expired, and offers only the way back', async () => {
  const tracked = await hostedPayment();
  const { page, ref } = tracked;
  await press(page, '[data-tester-expire-link]', /link has expired, and its open quote with it/);
  await waitForView(page, 'error');
  const text = (await card(page).textContent()) ?? '';
  assert.match(text, LINK_EXPIRED);
  assert.doesNotMatch(text, /new quote|báo giá mới/i, 'no new quote is promised: none can be had');
  assert.equal(await page.locator('pay-checkout [part="new-quote-button"]').count(), 0);
  assert.equal(await page.locator('pay-checkout [part="leave-button"]').count(), 1);
  const view = await get<View>(`/api/checkout/${ref}`);
  assert.deepEqual([view.status, view.payment!.status], ['expired', 'expired']);
  assertClean(tracked);
});

test('hosted page: "Expire the link now" before any payment reloads the page, which shows the link expired', async () => {
  const { payment_link_ref: ref } = await post<{ payment_link_ref: string }>('/demo/api/links', sampleLink());
  const tracked = await openPage(browser(), `/checkout?ref=${ref}`);
  const { page } = tracked;
  await waitForView(page, 'order');
  await page.locator('tester-panel [data-tester-expire-link]').click();
  await waitForView(page, 'error');
  assert.match((await card(page).textContent()) ?? '', LINK_EXPIRED);
  assert.equal((await get<View>(`/api/checkout/${ref}`)).status, 'expired');
  assertClean(tracked);
});

test('demo page: the test wallet sits beside the checkout on a desktop and under it on a phone; the tester panel under the element, outside its card', async () => {
  for (const [viewport, beside] of [
    [{ width: 1024, height: 900 }, true],
    [{ width: 390, height: 844 }, false],
  ] as const) {
    const tracked = await openSignedIn(browser(), '/', { viewport });
    const { page } = tracked;
    await createLinkInBuilder(page);
    await waitForView(page, 'order');
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const [checkout, wallet, element, panel] = [await box('checkout-preview'), await box('test-wallet'), await box('pay-checkout'), await box('tester-panel')];
    if (beside) assert.ok(wallet.x >= checkout.x + checkout.width && Math.abs(wallet.y - checkout.y) < 1, `${viewport.width} px: side by side`);
    else assert.ok(wallet.y >= checkout.y + checkout.height, `${viewport.width} px: the wallet under the checkout`);
    assert.ok(panel.y >= element.y + element.height, 'the panel under the element');
    assert.equal(await page.locator('pay-checkout tester-panel').count(), 0, 'not inside the element');
    assertClean(tracked);
  }
});
