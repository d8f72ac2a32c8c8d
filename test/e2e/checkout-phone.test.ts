// The hosted checkout on a phone (390 × 844) set to Vietnamese, every view a customer can meet, as served by `npm start`:
// axe-clean, nothing wider than the screen, nothing from another origin. With `--screenshots` it writes the
// pictures of docs/guide.md ("The checkout on a phone").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { CheckoutView, Payment } from '../../src/contract/index.js';
import { percentOf } from '../checkout/helpers/money.js';
import { assertAccessible, assertClean, browserForFile, createLinkInBuilder, get, openPage, openSignedIn, post, screenshot, waitForView, type TrackedPage } from './support.js';

const browser = browserForFile();
const PHONE = { width: 390, height: 844 };

/** The hosted page of `ref` on a phone set to Vietnamese. It carries the link's view: the first frame is the order. */
function onPhone(ref: string): Promise<TrackedPage> {
  return openPage(browser(), `/checkout?ref=${ref}`, PHONE, { locale: 'vi-VN' });
}

/** With `--screenshots`, the view's picture (without the focus ring a view change leaves: no keyboard was used). */
async function picture(page: Page, view: string, name: string): Promise<void> {
  await waitForView(page, view);
  await page.evaluate(() => (document.querySelector('pay-checkout')?.shadowRoot?.activeElement as HTMLElement | null)?.blur());
  await screenshot(page, name);
}

/** The view is in Vietnamese, axe-clean and fits the phone's width. */
async function check(page: Page, view: string): Promise<void> {
  await waitForView(page, view);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, `${view}: nothing wider than the screen`);
  assert.equal(await page.locator('pay-checkout [part="card"]').getAttribute('lang'), 'vi');
  await assertAccessible(page, `the ${view} view on a phone`);
}

async function look(page: Page, view: string, name: string): Promise<void> {
  await check(page, view);
  await picture(page, view, name);
}

async function paymentOf(ref: string): Promise<Payment> {
  const { payment } = await get<CheckoutView>(`/api/checkout/${ref}`);
  assert.ok(payment, `link ${ref} has a payment`);
  return payment;
}

const transfer = (payment: Payment, amount: string) =>
  post('/sandbox/wallet/transfers', { to: payment.address, asset: payment.asset, network: payment.network, amount });
const mine = (payment: Payment) => post('/sandbox/chain/mine', { blocks: payment.confirmations_required, network: payment.network });

async function newLink(): Promise<string> {
  const demo = await openSignedIn(browser(), '/');
  const ref = await createLinkInBuilder(demo.page);
  await demo.page.context().close();
  return ref;
}

/** A new link on a phone, its payment opened from the order view: in `assetKey`, or in the coin the order view picked. */
async function payingOnPhone(assetKey?: string) {
  const ref = await newLink();
  const tracked = await onPhone(ref);
  const { page } = tracked;
  await waitForView(page, 'order');
  if (assetKey) await page.locator(`pay-checkout input[name="asset"][value="${assetKey}"]`).check();
  await page.locator('pay-checkout [part="pay-button"]').click();
  await waitForView(page, 'payment');
  return { ref, tracked, page };
}

test('on a phone in Vietnamese: order, payment, partial, underpaid, confirming and the paid receipt', async () => {
  const ref = await newLink();
  const tracked = await onPhone(ref);
  const { page } = tracked;
  await look(page, 'order', '21-phone-order');
  const payBottom = await page.locator('pay-checkout [part="pay-button"]').evaluate((button) => button.getBoundingClientRect().bottom);
  assert.ok(payBottom <= PHONE.height, `the Pay button ends at ${payBottom} px, on the first screen`);

  await page.locator('pay-checkout input[name="asset"][value="USDT:TRON"]').check();
  await page.locator('pay-checkout [part="pay-button"]').click();
  await look(page, 'payment', '22-phone-payment');
  const quoted = await paymentOf(ref);

  await transfer(quoted, percentOf(quoted.amount_crypto, 50, 6));
  await page.locator('pay-checkout [part="received"]').waitFor();
  await look(page, 'payment', '23-phone-partial');

  await mine(quoted);
  await look(page, 'underpaid', '24-phone-underpaid');

  await transfer(quoted, (await paymentOf(ref)).remaining_crypto);
  await look(page, 'confirming', '25-phone-confirming');

  await mine(quoted);
  // The receipt with its countdown, then "stay" before the return to the shop.
  await picture(page, 'paid', '26-phone-paid');
  await page.locator('pay-checkout [part="stay-button"]').click();
  await check(page, 'paid');
  assertClean(tracked);
  await page.context().close();
});

test('on a phone in Vietnamese: an expired quote, a payment held as paid late, and an unknown link', async () => {
  const { ref, tracked, page } = await payingOnPhone('BTC:BITCOIN');
  const quoted = await paymentOf(ref);
  await post(`/sandbox/payments/${quoted.payment_id}/expire-quote`, {});
  await look(page, 'expired', '27-phone-expired');

  await transfer(quoted, quoted.amount_crypto);
  await mine(quoted);
  await look(page, 'paid_late', '28-phone-paid-late');
  assertClean(tracked);
  await page.context().close();

  const missing = await onPhone('pl_does_not_exist');
  await look(missing.page, 'error', '29-phone-error');
  assertClean(missing);
  await missing.page.context().close();
});

test('on a phone in Vietnamese: another coin after Pay, a partial payment whose quote ran out, the rest quoted, and a late transfer', async () => {
  const { ref, tracked, page } = await payingOnPhone();
  // The wrong coin: "Đổi loại tiền" goes back to the coins, and Pay opens the payment in the other one.
  await page.locator('pay-checkout [part="change-coin"]').click();
  await look(page, 'order', '30-phone-change-coin');
  await page.locator('pay-checkout input[name="asset"][value="BTC:BITCOIN"]').check();
  await page.locator('pay-checkout [part="pay-button"]').click();
  await page.locator('pay-checkout [part="amount-crypto"]', { hasText: 'BTC' }).waitFor();
  const quoted = await paymentOf(ref);
  assert.equal(quoted.asset, 'BTC');

  await transfer(quoted, percentOf(quoted.amount_crypto, 50, 8));
  await mine(quoted);
  await waitForView(page, 'underpaid');
  await post(`/sandbox/payments/${quoted.payment_id}/expire-quote`, {});
  await page.locator('pay-checkout [part="credit"]').waitFor();
  await look(page, 'expired', '31-phone-credit');
  const { received_vnd, amount } = await get<CheckoutView>(`/api/checkout/${ref}`);
  assert.ok(received_vnd > 0, 'what came in time counts');

  await page.locator('pay-checkout [part="new-quote-button"]').click();
  await page.locator('pay-checkout [part="amount-crypto"]').waitFor();
  const rest = await paymentOf(ref);
  assert.equal(rest.amount_vnd, amount - received_vnd, 'the new quote is for the rest');
  await look(page, 'payment', '32-phone-rest');

  await post(`/sandbox/payments/${rest.payment_id}/expire-quote`, {});
  await waitForView(page, 'expired');
  await transfer(rest, rest.amount_crypto);
  await look(page, 'late', '33-phone-late');
  assertClean(tracked);
  await page.context().close();
});
