// The webhooks page (docs/guide.md, "Webhooks"), through the page only: endpoints checked, refused by the gateway,
// added and removed, a refusal gone once an add succeeds; the demo receiver added in one click; a link built and paid on
// the demo page; its events in the delivery log, delivered (last response 200), verified by the receiver, and opened to
// their payload and the receiver's answer; a manual redelivery received again with the same event id; a test event that
// arrives at the receiver; a receiver's answer shown as text; a forged delivery refused and its claims shown as text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebhookDeliveryDetail } from '../../src/contract/index.js';
import { assertAccessible, assertClean, baseUrl, browserForFile, openSignedIn, scannedInBuilder, screenshot, walletPaid } from './support.js';

const browser = browserForFile();

const RECEIVER_URL = `${new URL(baseUrl).origin}/demo/webhook-receiver`;

/** Builds a link on the demo page and pays it exactly with the wallet panel; resolves with its merchant_order_id. */
async function buildAndPay(): Promise<string> {
  const { page } = await openSignedIn(browser(), '/');
  await page.locator('[data-balance="USDT:TRON"]').waitFor();
  const orderId = await page.locator('[name="merchant_order_id"]').inputValue();
  await scannedInBuilder(page, 'USDT:TRON');
  await walletPaid(page, 'exact', 'paid');
  await page.context().close();
  return orderId;
}

/** The delivery log's row for an event, once it reads `status` after `attempts` attempts (the page refreshes itself). */
function deliveryRow(page: Page, eventId: string, status: string, attempts: number) {
  return page
    .locator(`tr[data-event-id="${eventId}"]`)
    .filter({ has: page.locator(`[data-delivery-status]:text-is("${status}")`) })
    .filter({ has: page.locator(`[data-attempts]:text-is("${attempts}")`) });
}

test('a merchant adds the demo receiver, sees a paid link’s events delivered and verified, and redelivers one', async () => {
  const tracked = await openSignedIn(browser(), '/webhooks');
  const { page } = tracked;
  await page.getByText('Loading endpoints…').waitFor({ state: 'detached' });
  await assertAccessible(page, '/webhooks as first loaded');
  let endpointPosts = 0;
  page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/demo/api/webhooks/endpoints') && endpointPosts++));

  // The page checks the form of the URL; the gateway's rule (http: for the sandbox's own receivers only) comes back by the field.
  const url = page.locator('#f-url');
  const urlError = page.locator('#f-url-error');
  const addButton = page.getByRole('button', { name: 'Add endpoint' });
  await url.fill('ftp://shop.invalid/hooks');
  await addButton.click();
  assert.match((await urlError.textContent())!, /must be an https: \(or http:\) URL, not ftp:/);
  assert.equal(endpointPosts, 0);
  await url.fill('http://shop.invalid/hooks');
  await addButton.click();
  await urlError.filter({ hasText: /http: is taken only for the sandbox's own receivers/ }).waitFor();
  assert.match((await page.locator('#endpoint-problem').textContent())!, /The gateway refused the endpoint \(422\)/);
  assert.equal(await url.getAttribute('aria-invalid'), 'true');
  assert.equal(endpointPosts, 1);
  await assertAccessible(page, '/webhooks with the gateway refusing an endpoint');

  // Added, then removed after the confirmation.
  // A public address, as a literal: the gateway refuses a name that does not resolve, and this test asks no DNS.
  const other = 'https://93.184.216.34/pay-checkout';
  await url.fill(other);
  await addButton.click();
  const otherRow = page.locator('tr[data-endpoint]', { has: page.locator(`[data-url]:text-is("${other}")`) });
  await otherRow.waitFor();
  assert.equal(await urlError.count(), 0);
  assert.equal(await page.locator('#endpoint-problem').count(), 0, 'the refusal goes once an add succeeds');
  await otherRow.getByRole('button', { name: `Remove ${other}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this endpoint?' });
  await dialog.waitFor();
  await assertAccessible(page, '/webhooks asking to confirm a removal');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await otherRow.count(), 1, 'Cancel keeps the endpoint');
  await otherRow.getByRole('button', { name: `Remove ${other}` }).click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await otherRow.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: `Removed the endpoint ${other}.` }).waitFor();

  // Refused again, then the demo receiver added in one click: the form's refusal goes with that success too; the
  // receiver's log is shown, and its secret is hidden until revealed.
  await url.fill('http://shop.invalid/hooks');
  await addButton.click();
  await page.locator('#endpoint-problem').waitFor();
  await page.getByRole('button', { name: 'Add the demo receiver as an endpoint' }).click();
  const receiverRow = page.locator('tr[data-endpoint]', { has: page.locator(`[data-url]:text-is("${RECEIVER_URL}")`) });
  await receiverRow.waitFor();
  await page.getByRole('heading', { name: `Deliveries to ${RECEIVER_URL}` }).waitFor();
  await page.getByText('The demo receiver is one of your endpoints.').waitFor();
  assert.deepEqual([await page.locator('#endpoint-problem').count(), await urlError.count()], [0, 0], 'no refusal stands after the receiver was added');
  assert.equal(await receiverRow.locator('[data-secret]').count(), 0);
  const reveal = receiverRow.getByRole('button', { name: `Reveal the signing secret of ${RECEIVER_URL}` });
  await reveal.click();
  assert.equal(await reveal.getAttribute('aria-pressed'), 'true');
  const secret = (await receiverRow.locator('[data-secret]').textContent())!;
  assert.match(secret, /^test_whsec_\S+$/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseUrl).origin });
  await receiverRow.getByRole('button', { name: `Copy the signing secret of ${RECEIVER_URL}` }).click();
  await page.getByRole('status').filter({ hasText: `Copied the signing secret of ${RECEIVER_URL}.` }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  await reveal.click();
  assert.equal(await receiverRow.locator('[data-secret]').count(), 0);

  const orderId = await buildAndPay();

  // The receiver got both events of the payment, signed with the endpoint's secret (the page refreshes on its own).
  const receipts = page.locator('tr[data-receipt]', { hasText: orderId });
  const receiptOf = (type: string) => receipts.filter({ has: page.locator(`code:text-is("${type}")`) });
  await receiptOf('payment.confirming').waitFor();
  await receiptOf('payment.paid').waitFor();
  assert.equal(await receipts.count(), 2);
  assert.deepEqual(await receipts.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verified'))), ['true', 'true']);
  const confirmingId = (await receiptOf('payment.confirming').getAttribute('data-event-id'))!;
  const paidId = (await receiptOf('payment.paid').getAttribute('data-event-id'))!;
  assert.match(paidId, /^evt_/);

  // The same events in the endpoint's delivery log, delivered at the first attempt, newest first.
  await deliveryRow(page, confirmingId, 'delivered', 1).waitFor();
  await deliveryRow(page, paidId, 'delivered', 1).waitFor();
  const logged = await page.locator('tr[data-delivery]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
  assert.ok(logged.indexOf(paidId) < logged.indexOf(confirmingId), 'newest first');
  assert.equal(await deliveryRow(page, paidId, 'delivered', 1).locator('[data-last-response]').textContent(), '200', "the receiver's HTTP status");
  await assertAccessible(page, '/webhooks with deliveries and receipts');

  // Opened: the payload as sent, and the attempt with the receiver's status and answer.
  await page.getByRole('button', { name: `Details of payment.paid ${paidId}` }).click();
  const detail = page.locator('tr.detail-row delivery-detail');
  await detail.locator('[data-attempt="1"]').waitFor();
  assert.equal(JSON.parse((await detail.locator('[data-payload]').textContent())!).id, paidId);
  assert.equal(await detail.locator('[data-attempt="1"] [data-attempt-status]').textContent(), 'HTTP 200');
  assert.deepEqual(JSON.parse((await detail.locator('[data-attempt="1"] [data-response-body]').textContent())!), { received: paidId });
  await assertAccessible(page, '/webhooks with a delivery opened');

  // Redelivered by hand: one more attempt, and a second receipt with the same event id.
  await page.getByRole('button', { name: `Redeliver payment.paid ${paidId}` }).click();
  await deliveryRow(page, paidId, 'delivered', 2).waitFor();
  const paidReceipts = page.locator(`tr[data-receipt][data-event-id="${paidId}"]`);
  await paidReceipts.nth(1).waitFor();
  await detail.locator('[data-attempt="2"] [data-response-body]').waitFor();
  assert.equal(await paidReceipts.count(), 2);
  assert.deepEqual(await paidReceipts.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verified'))), ['true', 'true']);
  assert.equal(await page.locator(`tr[data-receipt][data-event-id="${confirmingId}"]`).count(), 1, 'only the one asked for is sent again');
  await assertAccessible(page, '/webhooks after a redelivery');
  await screenshot(page, '15-webhooks', { fullPage: true });
  assertClean(tracked);
});

test('a test event arrives at the demo receiver, verified; a receiver’s answer shows as text, never as HTML', async () => {
  const tracked = await openSignedIn(browser(), '/webhooks');
  const { page } = tracked;
  await page.getByText('Loading endpoints…').waitFor({ state: 'detached' });
  if (!(await page.getByText('The demo receiver is one of your endpoints.').count())) await page.getByRole('button', { name: 'Add the demo receiver as an endpoint' }).click();
  await page.getByRole('button', { name: `Send test event to ${RECEIVER_URL}` }).click();
  const queued = page.getByRole('status').filter({ hasText: /^Test event (evt_\S+) \(test\.ping\) queued/ });
  const eventId = /^Test event (evt_\S+)/.exec((await queued.textContent())!)![1]!;
  await page.locator(`tr[data-receipt][data-event-id="${eventId}"][data-verified="true"]`).waitFor();
  await deliveryRow(page, eventId, 'delivered', 1).waitFor();
  assert.equal(await deliveryRow(page, eventId, 'delivered', 1).locator('[data-last-response]').textContent(), '200');

  // A receiver that answers 500 with markup. The gateway takes only its own receivers on the loopback, so the answer is
  // put in the attempt as the gateway would record it (test/webhooks/attempts.test.ts records it from a real receiver).
  const markup = '<img src=x data-injected><b>maintenance</b>';
  const details = page.getByRole('button', { name: `Details of test.ping ${eventId}` });
  await details.click(); // closes the delivery the test event opened
  await page.route('**/demo/api/webhooks/deliveries/*', async (route) => {
    const answer = await route.fetch();
    const delivery = (await answer.json()) as WebhookDeliveryDetail;
    const attempt_log = delivery.attempt_log.map((a) => ({ ...a, status_code: 500, response_body: markup }));
    await route.fulfill({ response: answer, json: { ...delivery, attempt_log } });
  });
  await details.click();
  const attempt = page.locator('tr.detail-row delivery-detail [data-attempt="1"]');
  await attempt.waitFor();
  assert.equal(await attempt.locator('[data-attempt-status]').textContent(), 'HTTP 500');
  assert.equal(await attempt.locator('[data-response-body]').textContent(), markup);
  assert.equal(await page.locator('[data-injected], delivery-detail b').count(), 0, 'nothing the receiver answered is parsed as HTML');
  await assertAccessible(page, '/webhooks with a failed test event opened');
  await page.unroute('**/demo/api/webhooks/deliveries/*');
  assertClean(tracked);
});

test('the demo receiver refuses a forged delivery and shows what it claimed as text', async () => {
  const tracked = await openSignedIn(browser(), '/webhooks');
  const { page } = tracked;
  const claimed = { id: `evt_forged_${Date.now()}`, type: '<img src=x data-injected>payment.paid', data: { payment_link: { merchant_order_id: '<b>DH-1</b>' } } };
  const response = await fetch(RECEIVER_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Pay-Checkout-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'00'.repeat(32)}` },
    body: JSON.stringify(claimed),
  });
  assert.equal(response.status, 400);
  const row = page.locator(`tr[data-receipt][data-event-id="${claimed.id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-verified'), 'false');
  assert.match((await row.textContent())!, /not verified/);
  assert.equal(await row.locator('code').textContent(), claimed.type);
  assert.equal(await page.locator('[data-injected], tr[data-receipt] b').count(), 0, 'nothing the body claimed is parsed as HTML');
  await assertAccessible(page, '/webhooks with a forged delivery');
  assertClean(tracked);
});

test('away from localhost the page says why the demo receiver cannot be added', async () => {
  // Chromium resolves *.localhost to the loopback itself; the gateway takes http: on localhost, 127.0.0.1 and [::1] only.
  const away = new URL(baseUrl);
  away.hostname = 'demo.localhost';
  const tracked = await openSignedIn(browser(), new URL('/webhooks', away).href);
  const { page } = tracked;
  const note = page.locator('[data-receiver-note]');
  await note.waitFor();
  assert.match((await note.textContent())!.replace(/\s+/g, ' '), new RegExp(`on localhost only.*open it at http://localhost:${away.port}/webhooks`));
  assert.equal(await page.getByRole('button', { name: 'Add the demo receiver as an endpoint' }).count(), 0);
  await assertAccessible(page, '/webhooks away from localhost');
  assert.deepEqual([tracked.cspViolations, tracked.pageErrors], [[], []]);
});

test('rolling the client secret asks first, naming what ends and when; Cancel rolls nothing', async () => {
  // Only the dialog: a roll would end the secret the other tests of the run sign in with (test/portal covers the roll).
  const tracked = await openSignedIn(browser(), '/webhooks');
  const { page } = tracked;
  let rolls = 0;
  page.on('request', (r) => void (r.url().endsWith('/demo/api/client-secret/roll') && rolls++));
  await page.getByRole('button', { name: 'Roll the client secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll the client secret?' });
  await dialog.waitFor();
  assert.match((await dialog.textContent())!.replace(/\s+/g, ' '), /Now, the old one ends, and with it: the access tokens it issued .* every other portal session signed in with it\. This session goes on/);
  await dialog.getByLabel('The old secret ends').selectOption('86400');
  await dialog.getByText('In 24 hours, the old one ends').waitFor();
  await assertAccessible(page, '/webhooks asking to confirm a roll');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(rolls, 0);
  assert.equal(await page.locator('[data-new-secret]').count(), 0);
  assertClean(tracked);
});
