// The merchant portal's refund flow (seed section 1): transactions page → row menu (by keyboard) → refund form
// checked with the contract's schema → submit → every refund of the order listed; an over-refund refused with the
// gateway's reason shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleLink } from '../helpers/gateway.js';
import { assertAccessible, assertClean, baseUrl, browserForFile, openSignedIn, paidOrder, post, screenshot } from './support.js';

const browser = browserForFile();

test('a merchant refunds part of a paid order from the row menu, is refused an over-refund, then refunds the rest', async () => {
  const orderId = await paidOrder();
  const tracked = await openSignedIn(browser(), '/portal', { how: 'credentials' });
  const { page } = tracked;
  const row = page.locator(`tr[data-order="${orderId}"]`);
  await row.waitFor();
  assert.equal(await page.locator('tbody tr').first().getAttribute('data-order'), orderId, 'newest first');
  assert.match((await row.locator('[data-status]').textContent())!, /paid/);
  await assertAccessible(page, '/portal');

  // The row menu, by keyboard only.
  const dots = row.getByRole('button', { name: `Actions for order ${orderId}` });
  await dots.focus();
  await page.keyboard.press('Enter');
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  assert.equal(await dots.getAttribute('aria-expanded'), 'true');
  assert.equal(await focused(), 'Refund');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'View refunds');
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
  // The contract's schema speaks before anything is sent.
  let refundPosts = 0;
  page.on('request', (request) => void (request.method() === 'POST' && request.url().includes('/refunds') && refundPosts++));
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  assert.match((await page.locator('#f-refund-amount-error').textContent())!, /whole number of VND/);
  assert.match((await page.locator('#f-refund-description-error').textContent())!, /must not be empty/);
  assert.match((await page.locator('#f-refund-refund_reason-error').textContent())!, /must not be empty/);
  assert.equal(refundPosts, 0);

  await page.locator('#f-refund-amount').fill('100000');
  await page.locator('#f-refund-description').fill('Hoàn tiền một gói cà phê bị vỡ');
  await page.locator('#f-refund-refund_reason').fill('Hàng bị hư hỏng khi giao');
  await screenshot(page, '11-refund-form');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('heading', { name: `Refunds of order ${orderId}` }).waitFor();
  assert.equal(await dialog.isVisible(), false);
  assert.equal(await page.locator('[data-amount-to-refund]').getAttribute('data-amount-to-refund'), '260000');
  assert.deepEqual(await page.locator('[data-refund-status]').allTextContents(), ['SUCCESS']);

  // More than is left: the gateway refuses, and its reason is shown by the field.
  await row.getByRole('button', { name: `Actions for order ${orderId}` }).click();
  await row.getByRole('menuitem', { name: 'Refund', exact: true }).click();
  await page.locator('#f-refund-amount').fill('300000');
  await page.locator('#f-refund-description').fill('Hoàn thêm');
  await page.locator('#f-refund-refund_reason').fill('Khách đổi ý');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  const problem = dialog.getByRole('alert');
  await problem.waitFor();
  assert.match((await problem.textContent())!, /422.*more than the 260000 VND left/s);
  assert.match((await page.locator('#f-refund-amount-error').textContent())!, /at most 260000 VND/);
  await assertAccessible(page, '/portal with the refund form refusing an over-refund');
  await screenshot(page, '12-over-refund-refused');

  // Full: exactly what is left.
  await dialog.getByLabel('Full (what is left)').check();
  assert.equal(await page.locator('#f-refund-amount').inputValue(), '260000');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.locator('[data-amount-to-refund="0"]').waitFor();
  assert.deepEqual(await page.locator('[data-refund-status]').allTextContents(), ['SUCCESS', 'SUCCESS']);
  await screenshot(page, '13-refunds-listed', { fullPage: true });
  assert.equal(refundPosts, 3, 'two refunds and the refused one reached the server');

  // What the gateway holds agrees with what the page shows.
  await page.reload();
  await row.waitFor();
  assert.equal(await row.locator('td.num').nth(1).textContent(), '0\u00a0₫');
  assertClean(tracked);
});

test('an order that is not paid offers no refund', async () => {
  const link = sampleLink({ success_url: `${baseUrl}/success`, failure_url: `${baseUrl}/failure` });
  await post('/demo/api/links', link);
  const tracked = await openSignedIn(browser(), '/portal');
  const row = tracked.page.locator(`tr[data-order="${link.merchant_order_id}"]`);
  await row.getByRole('button', { name: /^Actions for order/ }).click();
  const refund = row.getByRole('menuitem', { name: /^Refund/ });
  assert.equal(await refund.getAttribute('aria-disabled'), 'true');
  // Playwright would wait for an aria-disabled item to become enabled; a person can still press it.
  await refund.click({ force: true });
  assert.equal(await tracked.page.getByRole('dialog').count(), 0);
  assertClean(tracked);
});
