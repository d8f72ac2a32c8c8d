// The two gateway reads the demo added: the merchant's latest links (the portal's transactions page) and ending a
// quote by the address a wallet scanned. Over HTTP against the running demo, as the portal and the wallet call them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleLink } from '../helpers/gateway.js';
import { baseUrl, post } from './support.js';

async function token(): Promise<string> {
  const response = await fetch(new URL('/api/v2/oauth/token', baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox_client', client_secret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const links = async (query: string, bearer?: string) => {
  const response = await fetch(new URL(`/api/paymentLink${query}`, baseUrl), { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  return { status: response.status, body: (await response.json()) as { payment_links?: { merchant_order_id: string }[]; errors?: unknown[] } };
};

test('GET /api/paymentLink lists the latest links newest first, bounded by ?limit, behind a Bearer token', async () => {
  const first = sampleLink();
  const second = sampleLink();
  await post('/demo/api/links', first);
  await post('/demo/api/links', second);
  const bearer = await token();
  const { status, body } = await links('?limit=2', bearer);
  assert.equal(status, 200);
  assert.deepEqual(body.payment_links!.map((l) => l.merchant_order_id), [second.merchant_order_id, first.merchant_order_id]);
  assert.equal((await links('?limit=2')).status, 401);
  const bad = await links('?limit=abc', bearer);
  assert.deepEqual([bad.status, bad.body.errors], [422, [{ path: 'limit', message: 'must be a whole number' }]]);
  assert.deepEqual((await links('?limit=201', bearer)).body.errors, [{ path: 'limit', message: 'must be at most 200' }]);
  assert.deepEqual((await links('?merchant_order_id=', bearer)).body.errors, [{ path: 'merchant_order_id', message: 'must not be empty' }]);
  const byOrder = await links(`?merchant_order_id=${first.merchant_order_id}`, bearer);
  assert.deepEqual(byOrder.body.payment_links!.map((l) => l.merchant_order_id), [first.merchant_order_id]);
});

test('POST /sandbox/addresses/{address}/expire-quote ends the quote of the payment at that address', async () => {
  const { payment_link_ref } = await post<{ payment_link_ref: string }>('/demo/api/links', sampleLink());
  const payment = await post<{ address: string; status: string }>(`/api/checkout/${payment_link_ref}/payments`, {
    pmt_channel: 'PROVIDER',
    pmt_method: 'PROVIDER_CRYPTO',
    asset: 'BTC',
    network: 'BITCOIN',
  });
  assert.equal(payment.status, 'awaiting_payment');
  // 204: an on-chain address is public, so the answer says nothing of the link it belongs to (docs/security.md).
  const expired = await fetch(new URL(`/sandbox/addresses/${payment.address}/expire-quote`, baseUrl), { method: 'POST' });
  assert.deepEqual([expired.status, await expired.text()], [204, '']);
  const view = (await (await fetch(new URL(`/api/checkout/${payment_link_ref}`, baseUrl))).json()) as { payment: { address: string; status: string } };
  assert.deepEqual([view.payment.address, view.payment.status], [payment.address, 'expired']);
  const unknown = await fetch(new URL('/sandbox/addresses/tb1qnobodypayshere/expire-quote', baseUrl), { method: 'POST' });
  assert.equal(unknown.status, 404);
});
