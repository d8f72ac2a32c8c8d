// A tester's paths through the demo page: build a link, the element shows it, the wallet panel reads its QR and
// pays; every payment status reached by hand; the browser lands on the merchant's pages with a signed redirect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { assertAccessible, assertClean, choosePayment, createLinkInBuilder, elementAttribute, get, browserForFile, openSignedIn, scanCheckoutQr, scannedInBuilder, screenshot, waitForView, walletPaid, WAIT } from './support.js';

const browser = browserForFile();

test('a new user builds a link, pays it exactly with the wallet panel, and lands on /success with a verified signature', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  await page.locator('[data-balance="USDT:TRON"]').waitFor();
  const balanceBefore = await page.locator('[data-balance="USDT:TRON"]').textContent();
  await assertAccessible(page, 'the demo page as first loaded');
  await screenshot(page, '01-builder');

  const ref = await createLinkInBuilder(page);
  assert.match(ref, /\S/);
  const orderId = await page.locator('pay-checkout .order-id').textContent();
  await choosePayment(page, 'USDT:TRON');
  await assertAccessible(page, 'the demo page with the checkout on its payment view');

  const address = await scanCheckoutQr(page);
  // A TRON QR holds only the address: the wallet beside the checkout takes the amount the checkout shows.
  const amount = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), amount);
  assert.match((await page.locator('.wallet [role="status"]').textContent())!, /The QR carries no amount: took .* from the checkout/);
  await screenshot(page, '02-demo-checkout-and-wallet', { fullPage: true });
  await walletPaid(page, 'exact', 'paid');
  await screenshot(page, '03-paid');

  // The element follows the signed success URL on its own, after its short countdown.
  await page.waitForURL(/\/success\?/, { timeout: WAIT });
  const param = (name: string) => page.locator(`[data-param="${name}"]`).textContent();
  assert.equal(await param('status'), 'paid');
  assert.equal(await param('payment_link_ref'), ref);
  assert.ok(orderId?.includes((await param('merchant_order_id'))!), `the order ${orderId} is the one paid`);
  await page.locator('[data-verified="true"]').waitFor();
  await assertAccessible(page, '/success');
  await screenshot(page, '04-success', { fullPage: true });
  assertClean(tracked);

  // The wallet sent exactly what the checkout asked, to the address its QR held.
  const wallet = await get<{ balances: { asset: string; network: string; balance: string }[] }>('/sandbox/wallet');
  const usdt = wallet.balances.find((b) => b.asset === 'USDT' && b.network === 'TRON')!;
  assert.equal(parseDecimal(balanceBefore!, 6) - parseDecimal(usdt.balance, 6), parseDecimal(amount, 6));
  const view = await get<{ payment: { address: string; status: string } }>(`/api/checkout/${ref}`);
  assert.deepEqual([view.payment.address, view.payment.status], [address, 'paid']);
  await page.context().close();
});

test('a partial payment leaves the checkout underpaid with the rest in its QR; paying the rest makes it paid', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  await scannedInBuilder(page, 'BTC:BITCOIN');
  // A BIP21 QR carries the amount: the wallet fills it from the QR alone.
  const due = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), due);

  await walletPaid(page, 'partial', 'underpaid');
  const remaining = await elementAttribute(page, '[data-remaining-crypto]', 'data-remaining-crypto');
  assert.ok(Number(remaining) > 0 && Number(remaining) < Number(due), `${remaining} BTC left of ${due}`);
  await assertAccessible(page, 'the checkout on its underpaid view');
  await screenshot(page, '05-underpaid');

  // The QR now asks for the rest only, at the same address.
  await scanCheckoutQr(page);
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), remaining);
  await walletPaid(page, 'exact', 'paid');
  await page.locator('pay-checkout [part="return-button"]').click();
  await page.waitForURL(/\/success\?/);
  await page.locator('[data-verified="true"]').waitFor();
  assertClean(tracked);
  await page.context().close();
});

test('an expired quote offers a new one; giving up lands on /failure with a verified signature', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const { ref, address } = await scannedInBuilder(page, 'USDT:ETHEREUM');
  const firstQuote = await elementAttribute(page, '[data-amount-crypto]', 'data-amount-crypto');
  assert.equal(await page.locator('[name="wallet.amount"]').inputValue(), firstQuote, 'EIP-681 carries the amount');

  await page.locator('[data-expire]').click();
  await waitForView(page, 'expired');
  await assertAccessible(page, 'the checkout on its expired view');
  await screenshot(page, '06-expired');

  await page.locator('pay-checkout [part="new-quote-button"]').click();
  await waitForView(page, 'payment');
  // A new quote is a new payment, at a new one-time address: the old quote takes nothing more.
  assert.notEqual(await elementAttribute(page, '[part="address"]', 'data-address'), address);

  // The wallet follows the new QR, and its quote runs out too.
  await scanCheckoutQr(page);
  await page.locator('[data-expire]').click();
  await waitForView(page, 'expired');
  await page.locator('pay-checkout [part="leave-button"]').click();
  await page.waitForURL(/\/failure\?/);
  assert.equal(await page.locator('[data-param="payment_link_ref"]').textContent(), ref);
  assert.equal(await page.locator('[data-param="status"]').textContent(), 'cancelled');
  await page.locator('[data-verified="true"]').waitFor();
  await assertAccessible(page, '/failure');
  await screenshot(page, '07-failure', { fullPage: true });
  assertClean(tracked);
  await page.context().close();
});

test('a full payment after the quote expired is held as paid late; an overpayment is paid and flagged', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  await scannedInBuilder(page, 'ETH:ETHEREUM');
  await walletPaid(page, 'late', 'paid_late');
  await assertAccessible(page, 'the checkout on its paid-late view');

  const { ref } = await scannedInBuilder(page, 'BTC:BITCOIN');
  await page.locator('pay-checkout').evaluate((el) => el.addEventListener('pay-checkout-success', (event) => event.preventDefault()));
  await walletPaid(page, 'overpay', 'paid');
  // The element announces the redirect when its countdown ends; the page cancelled it.
  await page.locator('.events li', { hasText: 'pay-checkout-success' }).waitFor({ state: 'attached' });
  const events = await page.locator('.events li').allTextContents();
  assert.ok(events.some((e) => e.includes('pay-checkout-success')), `the page heard the success event: ${events.join(' | ')}`);
  assert.ok(events.some((e) => /pay-checkout-status.*paid/.test(e)), 'a status event announced the payment');
  const view = await get<{ payment: { status: string; overpaid: boolean } }>(`/api/checkout/${ref}`);
  assert.deepEqual([view.payment.status, view.payment.overpaid], ['paid', true]);
  assert.match(page.url(), /\/$/, 'preventDefault() on pay-checkout-success kept the page');
  assertClean(tracked);
  await page.context().close();
});
