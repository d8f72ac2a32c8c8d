// A page on another origin that the signed-in merchant happens to visit (loopback, another port: the same site, so
// even a SameSite=Strict cookie goes along) tries to act as the merchant: the no-cors Blob refund, form POSTs (one
// dressed as JSON through text/plain) and a fetch with credentials. No refund, endpoint or link results.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { PaymentLinkResource, RefundList, WebhookEndpoint } from '../../src/contract/index.js';
import { sampleLink } from '../helpers/gateway.js';
import { baseUrl, browserForFile, get, openSignedIn, paidOrder } from './support.js';

const browser = browserForFile();

/** The attacker's page: inline script, no CSP, served from 127.0.0.1 on a port of its own. */
function attackPage(orderId: string): string {
  const demo = new URL(baseUrl).origin;
  const refund = JSON.stringify({ amount: 1000, channel: 'PROVIDER', description: 'drive-by', refund_type: 'partial', refund_reason: 'drive-by' });
  const link = JSON.stringify(sampleLink({ merchant_order_id: 'drive-by-link' }));
  // A text/plain form whose single field name and value join into JSON: `{"amount":…,"x":"="}`.
  const [jsonName, jsonValue] = [refund.slice(0, -1) + ',"x":"', '"}'];
  const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><title>Cheap coffee</title>
<iframe name="sink"></iframe><iframe name="sink2"></iframe><iframe name="sink3"></iframe>
<form id="plain" method="post" enctype="text/plain" target="sink" action="${demo}/demo/api/orders/${orderId}/refunds"><input name="${esc(jsonName)}" value="${esc(jsonValue)}"></form>
<form id="urlencoded" method="post" target="sink2" action="${demo}/demo/api/webhooks/endpoints"><input name="url" value="https://attacker.example/hooks"></form>
<form id="link" method="post" enctype="text/plain" target="sink3" action="${demo}/demo/api/links"><input name="${esc(link.slice(0, -1) + ',"x":"')}" value="${esc('"}')}"></form>
<script>
window.attack = async () => {
  const results = {};
  const opaque = (path, body) => fetch('${demo}' + path, { method: 'POST', mode: 'no-cors', credentials: 'include', body: new Blob([body]) })
    .then((r) => r.type, (e) => 'error: ' + e.message);
  results.blobRefund = await opaque('/demo/api/orders/${orderId}/refunds', ${JSON.stringify(refund)});
  results.blobEndpoint = await opaque('/demo/api/webhooks/endpoints', JSON.stringify({ url: 'https://attacker.example/hooks' }));
  results.blobLink = await opaque('/demo/api/links', ${JSON.stringify(link)});
  results.corsRefund = await fetch('${demo}/demo/api/orders/${orderId}/refunds', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(refund)} })
    .then((r) => 'read ' + r.status, (e) => 'blocked');
  results.corsRead = await fetch('${demo}/demo/api/session', { credentials: 'include' }).then((r) => r.text(), () => 'blocked');
  const loaded = (name) => new Promise((resolve) => document.querySelector('iframe[name=' + name + ']').addEventListener('load', resolve, { once: true }));
  for (const [form, sink] of [['plain', 'sink'], ['urlencoded', 'sink2'], ['link', 'sink3']]) {
    const done = loaded(sink);
    document.getElementById(form).submit();
    await done;
  }
  return results;
};
</script>`;
}

let attacker: Server;
let attackerUrl: string;
let orderId: string;

before(async () => {
  orderId = await paidOrder();
  attacker = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(attackPage(orderId)));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
});
after(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

test('a page on another origin cannot refund, add an endpoint or build a link through the signed-in merchant’s browser', async () => {
  const { page } = await openSignedIn(browser(), '/portal');
  const endpointsBefore = (await get<{ endpoints: WebhookEndpoint[] }>('/demo/api/webhooks/endpoints')).endpoints.length;

  // The merchant, still signed in, opens the other site in the same browser. Counted from there on: the portal's own
  // requests belong to the page left behind.
  await page.goto(attackerUrl);
  const demoRequests: { url: string; status: number }[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${new URL(baseUrl).origin}/demo/api/`)) demoRequests.push({ url: response.url(), status: response.status() });
  });
  const results = (await page.evaluate('window.attack()')) as Record<string, string>;
  assert.equal(results.corsRefund, 'blocked', 'the JSON fetch with credentials is stopped at its preflight');
  assert.equal(results.corsRead, 'blocked', 'the session (and its CSRF token) cannot be read from another origin');

  const refunds = await get<RefundList>(`/demo/api/orders/${orderId}/refunds`);
  assert.deepEqual(refunds.refundDetails, [], 'no refund');
  assert.equal(refunds.amountToRefund, 360_000);
  assert.equal((await get<{ endpoints: WebhookEndpoint[] }>('/demo/api/webhooks/endpoints')).endpoints.length, endpointsBefore, 'no endpoint');
  assert.deepEqual((await get<{ payment_links: PaymentLinkResource[] }>('/demo/api/transactions?q=drive-by-link')).payment_links, [], 'no link');
  // What reached the portal's API was refused there, not merely unread.
  assert.ok(demoRequests.length >= 6, `the attempts reached the server: ${JSON.stringify(demoRequests)}`);
  assert.ok(demoRequests.every((r) => r.status === 403 || r.status === 415 || r.status === 401), JSON.stringify(demoRequests));
});
