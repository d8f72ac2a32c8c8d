// The link builder: its amount follows the order lines, the gateway's validation errors land next to the fields
// they name, and merchant strings stay text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, assertClean, choosePayment, createLinkInBuilder, get, browserForFile, openPage, openSignedIn, screenshot, waitForView } from './support.js';

const browser = browserForFile();

test('the amount follows the lines; a wrong amount and a foreign currency come back as 422s next to their fields', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const amount = page.locator('#f-amount');
  assert.equal(await amount.inputValue(), '530000', 'the sample order adds up');
  const total = page.locator('.submit-bar [data-total]');
  await page.getByRole('button', { name: 'Add a line' }).click();
  assert.equal(await amount.inputValue(), '530000', 'a line with no price yet adds nothing');
  assert.equal(await total.textContent(), '₫530,000', 'and the bar’s total follows, in the page’s language');
  // The new line's fields come into view above the bar that rides along the bottom, label and all.
  const price = page.locator('#f-order_details-3-price');
  await price.focus();
  const [field, bar] = [(await price.boundingBox())!, (await page.locator('.submit-bar').boundingBox())!];
  assert.ok(field.y + field.height <= bar.y, `the price (${field.y}–${field.y + field.height}) is above the bar (from ${bar.y})`);
  await page.locator('#f-order_details-3-name').fill('Bánh pía Sóc Trăng');
  await page.locator('#f-order_details-3-price').fill('60000');
  assert.equal(await amount.inputValue(), '590000');
  assert.equal(await total.textContent(), '₫590,000');
  await page.getByRole('button', { name: 'Remove line 4' }).click();
  assert.equal(await amount.inputValue(), '530000');

  await amount.fill('500000');
  await page.locator('#f-currency').fill('USD');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const problem = page.locator('#form-problem');
  await problem.waitFor();
  assert.match((await problem.textContent())!, /422/);
  assert.match((await page.locator('#f-currency-error').textContent())!, /must be VND/);
  assert.equal(await page.locator('#f-currency').getAttribute('aria-invalid'), 'true');
  await assertAccessible(page, 'the builder showing the gateway\u2019s errors');
  await screenshot(page, '14-builder-422', { fullPage: false });

  await page.locator('#f-currency').fill('VND');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.locator('#f-amount-error').waitFor();
  assert.match((await page.locator('#f-amount-error').textContent())!, /must equal the order total 530000 VND, not 500000/);

  await page.getByRole('button', { name: 'Use the order total again' }).click();
  assert.equal(await amount.inputValue(), '530000');
  await createLinkInBuilder(page);
  assert.equal(await page.locator('#f-amount-error').count(), 0);
  assertClean(tracked);
});

test('merchant strings are shown as text, never as HTML, by the element on the demo page', async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  const markup = '<img src=x onerror="window.__owned=1">Cà phê <b>đậm</b>';
  await page.locator('#f-order_details-0-name').fill(markup);
  await page.locator('#f-merchant_details-name').fill(markup);
  await page.locator('#f-description').fill(markup);
  const ref = await createLinkInBuilder(page);
  await waitForView(page, 'order');
  const card = page.locator('pay-checkout [part="card"]');
  assert.ok((await card.textContent())!.includes(markup), 'the element shows the markup as text');
  assert.equal(await card.locator('b').count(), 0);
  const view = await get<{ description: string }>(`/api/checkout/${ref}`);
  assert.equal(view.description, markup, 'stored as sent');
  assert.equal(await page.evaluate(() => (window as { __owned?: number }).__owned), undefined);
  // An inline handler that got parsed would also show here, as a CSP refusal.
  assertClean(tracked);
});

test('one input style on every demo page: the sign-in’s secret is as tall, and in the same font, as the builder’s fields', async () => {
  const measure = (page: Page, selector: string) =>
    page.locator(selector).evaluate((field) => {
      const style = getComputedStyle(field);
      return { height: field.getBoundingClientRect().height, font: style.fontSize, border: style.borderTopWidth };
    });
  const signIn = await openPage(browser(), '/signin');
  const secret = await measure(signIn.page, '#f-client_secret');
  const builder = await openSignedIn(browser(), '/');
  const amount = await measure(builder.page, '#f-amount');
  assert.deepEqual(secret, amount);
  assertClean(signIn);
  assertClean(builder);
});

test("a tester's quote lifetime for the link (sandbox only): the builder sends it, and the checkout's quote holds that long", async () => {
  const tracked = await openSignedIn(browser(), '/');
  const { page } = tracked;
  await page.getByLabel('Quote lifetime for this link (seconds, sandbox only)').fill('60');
  const ref = await createLinkInBuilder(page);
  await choosePayment(page, 'USDT:TRON');
  const { payment } = await get<{ payment: { created_at: string; quote_expires_at: string } }>(`/api/checkout/${ref}`);
  assert.equal(Date.parse(payment.quote_expires_at) - Date.parse(payment.created_at), 60_000);
  assertClean(tracked);
});
