// What the gateway asks of a request before any rule of the API: JSON bodies say they are JSON (415 otherwise;
// createRefund, whose content type the integration document leaves open, and the checkout API's POST may send none), and a path or headers too large for the server
// are answered with problem details, not Node's empty 431.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { before, describe, it } from 'node:test';
import type { Problem } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { paidOrder, rowCounts, signedLinkBody } from '../helpers/merchant-api.js';

interface Raw {
  status: number;
  type: string | undefined;
  body: string;
}

/** A request exactly as given: no Content-Type unless one is in `headers` (fetch would add text/plain to a string). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers: { ...headers, ...(body !== undefined && { 'Content-Length': String(Buffer.byteLength(body)) }) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, type: response.headers['content-type'], body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const problem = (answer: Raw) => {
  assert.equal(answer.type, 'application/problem+json', answer.body);
  return JSON.parse(answer.body) as Problem;
};

describe(`request shape (${storageName})`, () => {
  const gw = useTestGateway({ token: true });
  const bearer = () => ({ Authorization: `Bearer ${gw.token}` });
  let ref: string;
  before(async () => {
    ref = (await gw.client.createPaymentLink(sampleLink())).payment_link_ref;
  });

  const jsonEndpoints = (): [string, string, Record<string, string>, unknown][] => [
    ['POST', '/api/paymentLink', {}, signedLinkBody(gw.credentials)],
    ['POST', `/api/checkout/${ref}/payments`, {}, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' }],
    ['POST', '/sandbox/wallet/transfers', {}, { to: 'TXYZ', asset: 'USDT', network: 'TRON', amount: '1' }],
    ['POST', '/sandbox/chain/mine', {}, { blocks: 1 }],
    ['POST', '/api/webhooks/endpoints', bearer(), { url: 'https://hooks.shop.example/pay' }],
  ];

  for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    it(`answers 415 to a JSON body sent ${type ? `as ${type}` : 'without a Content-Type'}, and stores nothing`, async () => {
      const before = await rowCounts(gw.gateway.db);
      // The checkout API's POST takes a body without a type (the next test).
      for (const [method, path, headers, body] of jsonEndpoints().filter(([, path]) => type !== undefined || !path.startsWith('/api/checkout/'))) {
        const answer = await raw(gw.url, method, path, { ...headers, ...(type && { 'Content-Type': type }) }, JSON.stringify(body));
        assert.equal(answer.status, 415, `${path}: ${answer.body}`);
        assert.match(problem(answer).detail!, /Content-Type must be application\/json/);
      }
      assert.deepEqual(await rowCounts(gw.gateway.db), before);
    });
  }

  it("reads the checkout API's POST without a Content-Type as JSON, which a browser sends from another origin without a CORS preflight", async () => {
    const body = JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
    const answer = await raw(gw.url, 'POST', `/api/checkout/${ref}/payments`, {}, body);
    assert.equal(answer.status, 201, answer.body);
    assert.equal((JSON.parse(answer.body) as { status: string }).status, 'awaiting_payment');
    for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      const refused = await raw(gw.url, 'POST', `/api/checkout/${ref}/payments`, { 'Content-Type': type }, body);
      assert.equal(refused.status, 415, `${type}: a present type must still be JSON`);
    }
    const broken = await raw(gw.url, 'POST', `/api/checkout/${ref}/payments`, {}, '{"asset":');
    assert.equal(broken.status, 400, 'a body without a type is still parsed as JSON, and refused when it is not');
  });

  it('takes application/json, with a charset or as a +json type', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json']) {
      const answer = await raw(gw.url, 'POST', '/sandbox/chain/mine', { 'Content-Type': type }, JSON.stringify({ blocks: 1 }));
      assert.equal(answer.status, 200, `${type}: ${answer.body}`);
    }
    assert.equal((await raw(gw.url, 'POST', '/sandbox/chain/mine')).status, 200, 'an optional body may be left out, and then needs no type');
  });

  it('leaves createRefund\'s content type open, as the integration document does: no Content-Type is taken', async () => {
    const { orderId } = await paidOrder(gw);
    const body = JSON.stringify({ amount: 10_000, channel: 'PROVIDER', description: 'one bag', refund_type: 'partial', refund_reason: 'damaged' });
    const answer = await raw(gw.url, 'POST', `/api/refund/createRefund/${orderId}`, bearer(), body);
    assert.equal(answer.status, 201, answer.body);
    const typed = await raw(gw.url, 'POST', `/api/refund/createRefund/${orderId}`, { ...bearer(), 'Content-Type': 'text/plain' }, body);
    assert.equal(typed.status, 415, 'a type that is not JSON is still refused');
  });

  it('answers a path over 16 KiB with a 431 problem', async () => {
    const answer = await raw(gw.url, 'GET', `/api/checkout/${'a'.repeat(17 * 1024)}`);
    assert.equal(answer.status, 431);
    assert.match(problem(answer).detail!, /16 KiB/);
  });

  it('answers headers over 16 KiB with a 431 problem', async () => {
    const answer = await raw(gw.url, 'GET', `/api/checkout/${ref}`, { 'X-Padding': 'p'.repeat(17 * 1024) });
    assert.equal(answer.status, 431);
    assert.equal(problem(answer).status, 431);
  });

  it('answers a request that is not HTTP with a 400 problem', async () => {
    const text = await new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(Number(new URL(gw.url).port), '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n'));
      socket.on('data', (chunk) => (got += chunk));
      socket.on('close', () => resolve(got));
    });
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /Content-Type: application\/problem\+json/);
    assert.match(text, /not valid HTTP/);
  });
});

describe(`text fields (${storageName})`, () => {
  const gw = useTestGateway();

  const line = { id: 'sku-1', name: 'Cà phê', price: 360_000, quantity: 1 };
  const linkWith = (overrides: Record<string, unknown>) => sampleLink({ merchant_details: undefined, order_details: [line], ...overrides });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['a zero-width-only line name', { order_details: [{ ...line, name: '\u200b\u200b' }] }, 'order_details.0.name', /visible character/],
    ['a Hangul-filler-only description', { description: '\u3164' }, 'description', /visible character/],
    ['a blank description', { description: ' \u00a0\t' }, 'description', /visible character/],
    ['a right-to-left override in the description', { description: 'Refund \u202Edesab' }, 'description', /bidirectional control/],
    ['an isolate in a line name', { order_details: [{ ...line, name: 'Cà phê \u2066x\u2069' }] }, 'order_details.0.name', /U\+2066/],
    ['an embedding in the merchant name', { merchant_details: { name: '\u202BShop' } }, 'merchant_details.name', /bidirectional control/],
    ['a pop in the billing name', { billing_details: { billing_name: 'An\u202C' } }, 'billing_details.billing_name', /bidirectional control/],
    ['a left-to-right mark in the description', { description: 'Shop\u200E' }, 'description', /bidirectional control/],
    ['a right-to-left mark in a line name', { order_details: [{ ...line, name: '\u200FCà phê' }] }, 'order_details.0.name', /U\+200F/],
    ['an Arabic letter mark in the description', { description: 'Shop \u061C' }, 'description', /U\+061C/],
    ['tag characters in the billing name', { billing_details: { billing_name: 'An\u{E0041}\u{E007F}' } }, 'billing_details.billing_name', /tag characters/],
    ['a lone combining mark as the description', { description: '\u0301' }, 'description', /visible character/],
  ];
  for (const [what, overrides, path, rule] of refusals) {
    it(`refuses ${what}, naming ${path} and the rule`, async () => {
      await assert.rejects(gw.client.createPaymentLink(linkWith(overrides) as never), (error: { status: number; fieldErrors: { path: string; message: string }[] }) => {
        assert.equal(error.status, 422);
        const found = error.fieldErrors.find((e) => e.path === path);
        assert.ok(found, `${path} named in ${JSON.stringify(error.fieldErrors)}`);
        assert.match(found.message, rule);
        return true;
      });
    });
  }

  it('keeps text in any script, with combining marks and joiners inside visible text', async () => {
    const link = await gw.client.createPaymentLink(linkWith({ description: 'Đơn hàng עברית العربية 👩\u200d💻 cà phe\u0302' }));
    assert.match(link.payment_link_ref, /^pl_/);
  });

  it('refuses a refund description made of invisible characters or with an override', async () => {
    const { orderId } = await paidOrder(gw);
    for (const [description, rule] of [['\u200b', /visible character/], ['ok \u202Ekcab', /bidirectional control/]] as const) {
      await assert.rejects(
        gw.client.createRefund(orderId, { amount: 1000, channel: 'PROVIDER', description, refund_type: 'partial', refund_reason: 'damaged' }),
        (error: { status: number; fieldErrors: { path: string; message: string }[] }) => {
          assert.equal(error.status, 422);
          assert.equal(error.fieldErrors[0]!.path, 'description');
          assert.match(error.fieldErrors[0]!.message, rule);
          return true;
        },
      );
    }
    assert.equal((await gw.client.getRefunds(orderId)).refundDetails.length, 0);
  });
});
