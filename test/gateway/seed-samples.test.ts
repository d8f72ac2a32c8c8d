// The integration document's sample requests as curl sends them (its headers, its content types, nothing else) get
// its response shapes, field for field (docs/api.md: the payment link, the refund list, the token).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

import { signedLinkBody } from '../helpers/merchant-api.js';

/** One request with exactly the headers curl sends: Host, User-Agent, Accept, and what the sample adds. */
function curl(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { Host: url.host, 'User-Agent': 'curl/8.14.1', Accept: '*/*', ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const keys = (value: unknown) => Object.keys(value as object).sort();

describe(`the integration document's sample requests (${storageName})`, () => {
  const gw = useTestGateway();
  let token: string;

  it('the token request, with its empty Authorization header, answers with the token', async () => {
    const { clientId, clientSecret } = gw.credentials;
    const answer = await curl(
      gw.url,
      'POST',
      '/api/v2/oauth/token',
      { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: '' },
      `client_id=${clientId}&client_secret=${clientSecret}&grant_type=client_credentials`,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(keys(answer.body), ['access_token', 'expires_in', 'token_type']);
    assert.equal(typeof answer.body.access_token, 'string');
    assert.equal(answer.body.token_type, 'bearer');
    assert.ok(Number.isInteger(answer.body.expires_in));
    token = answer.body.access_token as string;
  });

  const order = 'seed-order-2001';

  it('the payment link request with every field answers with the link', async () => {
    const body = signedLinkBody(gw.credentials, {
      merchant_order_id: order,
      amount: 455_000,
      currency: 'VND',
      country_code: 'VN',
      billing_details: {
        billing_name: 'Trần Thị Bình',
        billing_email: 'binh@example.com',
        billing_phone: '0901234567',
        billing_address: { city: 'Đà Nẵng', country_code: 'VN', locale: 'vi', line_1: '1 Bạch Đằng', line_2: 'Tầng 2', postal_code: '550000', state: 'Hải Châu' },
      },
      shipping_details: {
        shipping_name: 'Trần Thị Bình',
        shipping_email: 'binh@example.com',
        shipping_phone: '0901234567',
        shipping_address: { city: 'Đà Nẵng', country_code: 'VN', locale: 'vi', line_1: '1 Bạch Đằng', postal_code: '550000' },
      },
      merchant_details: {
        name: 'Trà Xanh Shop',
        logo: 'https://shop.example/logo.png',
        back_url: 'https://shop.example/cart',
        promo_code: 'WELCOME',
        promo_discount: 25_000,
        shipping_charges: 30_000,
      },
      order_details: [
        { id: 'tea-1', price: 150_000, name: 'Trà Thái Nguyên 200 g', quantity: 2, image: 'https://shop.example/tea.png' },
        { id: 'cup-1', price: 150_000, name: 'Chén gốm', quantity: 1 },
      ],
      success_url: 'https://shop.example/success',
      failure_url: 'https://shop.example/failure',
      expiry_hours: 48,
      source: 'api',
      description: 'Đơn hàng trà',
      show_shipping_details: true,
      show_back_button: true,
      default_guest_checkout: false,
      is_checkout_embed: true,
    });
    const answer = await curl(gw.url, 'POST', '/api/paymentLink', { 'Content-Type': 'application/json' }, JSON.stringify(body));
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(keys(answer.body), ['payment_link', 'payment_link_ref']);
    assert.equal(answer.body.payment_link, `${gw.gateway.config.checkoutUrl}?ref=${String(answer.body.payment_link_ref)}`);
    await gw.markPaid(answer.body.payment_link_ref as string);
  });

  // The seed's fields exactly, and the customer's claim link beside them.
  const record = ['amount', 'claim_url', 'currency', 'psp_refund_id', 'refund_date', 'refund_id', 'refund_reason', 'refund_status', 'refund_type'];

  it('the create-refund request (shown with no content type: with JSON and with none) answers with the refund list', async () => {
    const refund = { amount: 55_000, channel: 'PROVIDER', description: 'Chén bị vỡ', refund_type: 'partial', refund_reason: 'damaged' };
    for (const headers of [{ 'Content-Type': 'application/json' }, {}] as Record<string, string>[]) {
      const answer = await curl(gw.url, 'POST', `/api/refund/createRefund/${order}`, { Authorization: `Bearer ${token}`, ...headers }, JSON.stringify(refund));
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.deepEqual(keys(answer.body), ['amountToRefund', 'refundDetails']);
      for (const r of answer.body.refundDetails as object[]) assert.deepEqual(keys(r), record);
    }
  });

  it('the refund list request answers with every refund of the order', async () => {
    const answer = await curl(gw.url, 'GET', `/api/refund/getDataByTransaction/${order}`, { Authorization: `Bearer ${token}` });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(keys(answer.body), ['amountToRefund', 'refundDetails']);
    assert.equal(answer.body.amountToRefund, 455_000 - 2 * 55_000);
    const details = answer.body.refundDetails as Record<string, unknown>[];
    assert.equal(details.length, 2);
    for (const r of details) {
      assert.deepEqual(keys(r), record);
      assert.deepEqual([r.amount, r.currency, r.refund_status, r.refund_type, r.refund_reason], [55_000, 'vnd', 'PENDING', 'partial', 'damaged']);
    }
  });
});
