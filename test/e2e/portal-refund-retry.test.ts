// The portal's refund form in Chromium, when the answer to its POST is lost: the refund was made, the page saw a
// network error, and the merchant presses Refund again. The form sends one Idempotency-Key per showing of it, so the
// second POST replays the first refund instead of making another (docs/api.md, "Idempotency").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertClean, browserForFile, get, openSignedIn, paidOrder } from './support.js';

const browser = browserForFile();

test('a refund whose answer was lost, sent again from the same form, is made once', async () => {
  const orderId = await paidOrder();
  const tracked = await openSignedIn(browser(), '/portal', { how: 'credentials' });
  const { page } = tracked;
  const keys: string[] = [];
  await page.route('**/demo/api/orders/*/refunds', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    // The server makes the refund; its answer never reaches the page.
    await route.fetch();
    await route.abort('connectionreset');
  });

  const row = page.locator(`tr[data-order="${orderId}"]`);
  await row.getByRole('button', { name: `Actions for order ${orderId}` }).click();
  await page.getByRole('menuitem', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog', { name: `Refund order ${orderId}` });
  await page.locator('#f-refund-amount').fill('100.000');
  await page.locator('#f-refund-reason_choice').selectOption('Goods damaged in delivery');
  await page.locator('#f-refund-description').fill('Hoàn tiền một gói cà phê bị vỡ');
  const submit = dialog.getByRole('button', { name: 'Refund ₫100,000', exact: true });
  await submit.click();
  await dialog.locator('[role="alert"]', { hasText: 'did not answer' }).waitFor();
  await submit.click();

  await page.getByRole('heading', { name: `Refunds of order ${orderId}` }).waitFor();
  const { refunds, amountToRefund } = await get<{ refunds: unknown[]; amountToRefund: number }>(`/demo/api/orders/${encodeURIComponent(orderId)}`);
  assert.equal(refunds.length, 1, 'one refund, not two');
  assert.equal(amountToRefund, 260_000);
  assert.equal(keys.length, 2);
  assert.match(keys[0]!, /^[0-9a-f]{32}$/);
  assert.equal(keys[1], keys[0], 'the same key on the second POST');
  assert.equal(await page.locator('tr[data-refund]').count(), 1);
  assertClean(tracked);
});
