// The merchant portal's API (demo/server.ts) behind its sign-in, over HTTP: anonymous requests get 401 on every
// route; a session acts as its own merchant only; changes need the same Origin, JSON and the session's CSRF token;
// the one-click sandbox sign-in works only at a loopback name; sessions end on sign-out and after their time.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SECRET_REPLACED, type Problem } from '../../src/contract/index.js';
import type { MerchantCredentials } from '../../src/sandbox/config.js';
import { SESSION_COOKIE, Sessions } from '../../demo/session.js';
import { issueCredential, issueCredentials } from '../../src/sandbox/services/merchant/credentials.js';
import { sampleLink, storageName, type TestGateway } from '../helpers/gateway.js';
import { paidOrder } from '../helpers/merchant-api.js';
import { startPortal } from '../helpers/portal.js';
import { startReceiver } from '../helpers/receiver.js';

/** Every route of the portal's API, with a body where it takes one. */
const PORTAL_API: [string, string, unknown?][] = [
  ['GET', '/demo/api/session'],
  ['DELETE', '/demo/api/session'],
  ['POST', '/demo/api/links', sampleLink()],
  ['GET', '/demo/api/transactions'],
  ['GET', '/demo/api/orders/order-1'],
  ['POST', '/demo/api/payments/pay_1/accept'],
  ['POST', '/demo/api/payment-links/pl_1/cancel'],
  ['GET', '/demo/api/orders/order-1/refunds'],
  ['POST', '/demo/api/orders/order-1/refunds', { amount: 1000, channel: 'PROVIDER', description: 'x', refund_type: 'partial', refund_reason: 'x' }],
  ['POST', '/demo/api/refunds/rf_1/cancel', {}],
  ['POST', '/demo/api/refunds/rf_1/retry'],
  ['POST', '/demo/api/refunds/rf_1/claim-with-test-wallet'],
  ['GET', '/demo/api/webhooks/endpoints'],
  ['POST', '/demo/api/webhooks/endpoints', { url: 'https://hooks.shop.example/pay' }],
  ['DELETE', '/demo/api/webhooks/endpoints/we_1'],
  ['GET', '/demo/api/webhooks/endpoints/we_1/deliveries'],
  ['POST', '/demo/api/webhooks/deliveries/1/redeliver'],
  ['GET', '/demo/api/webhooks/receiver'],
  ['POST', '/demo/api/client-secret/roll', {}],
];

/** A request with exactly these headers (fetch would not send a Host of its own). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string; cookie: string[] | undefined }>((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text, cookie: response.headers['set-cookie'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe(`secretless sign-in off unless enabled (${storageName})`, () => {
  it('refuses the one-click sign-in of a portal started without SANDBOX_SECRETLESS_SIGN_IN=1, even from this machine', async () => {
    const gw = await startPortal({});
    try {
      const origin = new URL(gw.url).origin;
      const offered = (await (await fetch(new URL('/demo/sign-in', gw.url))).json()) as { sandbox_sign_in: boolean };
      assert.equal(offered.sandbox_sign_in, false);
      const refused = await fetch(new URL('/demo/sign-in', gw.url), { method: 'POST', headers: { Origin: origin, 'Content-Type': 'application/json' }, body: JSON.stringify({ sandbox: true }) });
      assert.deepEqual([refused.status, refused.headers.get('set-cookie')], [403, null]);
    } finally {
      await gw.close();
    }
  });
});

describe(`merchant portal sessions (${storageName})`, () => {
  let gw: TestGateway;
  let origin: string;
  let clock = Date.now();
  before(async () => {
    gw = await startPortal({ secretlessSignIn: true, sessions: new Sessions('sandbox', 3_600_000, () => clock) });
    origin = new URL(gw.url).origin;
  });
  after(() => gw.close());

  async function call<T = Problem>(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; base?: string } = {}) {
    const response = await fetch(new URL(path, init.base ?? gw.url), {
      method,
      redirect: 'manual',
      headers: { ...(init.body !== undefined && { 'Content-Type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (/json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text) as T };
  }

  /** Signs in as the sign-in page does; the headers a page of that session sends with a change. */
  async function signIn(credentials: Pick<MerchantCredentials, 'clientId' | 'clientSecret'>) {
    const answer = await call<{ csrf_token: string }>('POST', '/demo/sign-in', {
      headers: { Origin: origin },
      body: { client_id: credentials.clientId, client_secret: credentials.clientSecret },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const cookie = answer.headers.getSetCookie()[0]!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(cookie, /Max-Age=\d+/);
    return { Cookie: cookie.split(';')[0]!, Origin: origin, 'Content-Type': 'application/json', 'X-CSRF-Token': answer.body.csrf_token };
  }

  for (const [method, path, body] of PORTAL_API) {
    it(`answers ${method} ${path} without a session with 401`, async () => {
      // Even from the portal's own origin: the session is what is missing.
      const answer = await call(method, path, { body, headers: { Origin: origin } });
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.match(answer.body.detail!, /Sign in/);
    });
  }

  it("sends the merchant's pages to the sign-in, and leaves the customer's pages and the checks open", async () => {
    for (const path of ['/', '/portal', '/webhooks', '/portal/orders/DH-1001']) {
      const answer = await call('GET', path);
      assert.equal(answer.status, 303, path);
      assert.equal(answer.headers.get('location'), `/signin?next=${encodeURIComponent(path)}`);
    }
    // Unbuilt here (503), but not sent to the sign-in.
    for (const path of ['/signin', '/wallet', '/success', '/failure']) assert.equal((await call('GET', path)).status, 503, path);
    const verify = await call<{ verified: boolean }>('POST', '/demo/api/redirects/verify', { body: { url: 'https://shop.example/success?status=paid' } });
    assert.deepEqual([verify.status, verify.body.verified], [200, false]);
    assert.equal((await call('POST', '/demo/webhook-receiver', { body: {} })).status, 400, 'the receiver answers deliveries itself');
  });

  it("shows a session from another merchant none of this merchant's data, and lets it change none", async () => {
    await gw.reset();
    const receiver = await startReceiver();
    try {
      const endpoint = await gw.client.addWebhookEndpoint(receiver.url);
      const { orderId } = await paidOrder(gw);
      await gw.gateway.webhookDispatcher.deliverDue();
      const [delivery] = await gw.client.getWebhookDeliveries(endpoint.endpoint_id);
      assert.ok(delivery);

      const mine = await signIn(gw.credentials);
      assert.equal((await call<{ payment_links: unknown[] }>('GET', '/demo/api/transactions', { headers: mine })).body.payment_links.length, 1);
      assert.equal((await call<{ endpoints: unknown[] }>('GET', '/demo/api/webhooks/endpoints', { headers: mine })).body.endpoints.length, 1);

      const other = await gw.addMerchant();
      const theirs = await signIn(other.credentials);
      const view = async <T>(path: string) => (await call<T>('GET', path, { headers: theirs })).body;
      assert.deepEqual(await view('/demo/api/transactions'), { payment_links: [], next_cursor: null });
      assert.deepEqual(await view(`/demo/api/transactions?q=${orderId}`), { payment_links: [], next_cursor: null });
      assert.equal((await call('GET', `/demo/api/orders/${orderId}`, { headers: theirs })).status, 404, 'no such order for this merchant');
      assert.deepEqual(await view('/demo/api/webhooks/endpoints'), { endpoints: [] });
      assert.deepEqual(await view('/demo/api/webhooks/receiver'), { receipts: [] });
      assert.equal((await call('GET', `/demo/api/orders/${orderId}/refunds`, { headers: theirs })).status, 404, 'no such order for this merchant');
      assert.equal((await call('GET', `/demo/api/webhooks/endpoints/${endpoint.endpoint_id}/deliveries`, { headers: theirs })).status, 404);

      const refund = { amount: 1000, channel: 'PROVIDER', description: 'not mine', refund_type: 'partial', refund_reason: 'x' };
      assert.notEqual((await call('POST', `/demo/api/orders/${orderId}/refunds`, { headers: theirs, body: refund })).status, 201);
      assert.equal((await call('DELETE', `/demo/api/webhooks/endpoints/${endpoint.endpoint_id}`, { headers: theirs })).status, 404);
      assert.equal((await call('POST', `/demo/api/webhooks/deliveries/${delivery.delivery_id}/redeliver`, { headers: theirs })).status, 404);
      const [paidPayment] = (await gw.client.findPaymentLinks(orderId))[0]!.payments;
      assert.equal((await call('POST', `/demo/api/payments/${paidPayment!.payment_id}/accept`, { headers: theirs })).status, 404, 'another merchant’s payment is unknown');
      assert.equal((await call('POST', '/demo/api/links', { headers: theirs, body: sampleLink() })).status, 403, 'the demo holds no merchant key but the sandbox one');

      assert.deepEqual((await gw.client.getRefunds(orderId)).refundDetails, [], 'no refund');
      assert.equal((await gw.client.listWebhookEndpoints()).length, 1, 'the endpoint is still there');
      assert.equal((await gw.client.getWebhookDeliveries(endpoint.endpoint_id))[0]!.attempts, delivery.attempts, 'nothing redelivered');
    } finally {
      await receiver.stop();
    }
  });

  it('takes a change only from its own origin, as JSON, with the session\'s CSRF token', async () => {
    const session = await signIn(gw.credentials);
    // A public address as a literal: a name would need DNS, and one that does not resolve is refused.
    const body = { url: 'https://93.184.216.34/pay' };
    const refused: [Record<string, string>, number, RegExp][] = [
      [{ ...session, Origin: 'http://localhost:1' }, 403, /own pages only/],
      [{ ...session, Origin: 'null' }, 403, /own pages only/],
      [{ ...session, Origin: '' }, 403, /no origin/],
      [{ ...session, 'Sec-Fetch-Site': 'same-site' }, 403, /own pages only/],
      [{ ...session, 'Content-Type': 'text/plain' }, 415, /application\/json/],
      [{ ...session, 'X-CSRF-Token': 'guess' }, 403, /X-CSRF-Token/],
      [{ ...session, 'X-CSRF-Token': '' }, 403, /X-CSRF-Token/],
    ];
    for (const [headers, status, detail] of refused) {
      const answer = await call('POST', '/demo/api/webhooks/endpoints', { headers, body });
      assert.equal(answer.status, status, `${JSON.stringify(headers)}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body.detail!, detail);
    }
    const { 'Content-Type': _type, ...untyped } = session;
    const noType = await fetch(new URL('/demo/api/webhooks/endpoints', gw.url), { method: 'POST', headers: untyped, body: new Blob([JSON.stringify(body)]) });
    assert.equal(noType.status, 415, 'a body without a Content-Type');
    assert.equal((await gw.client.listWebhookEndpoints()).filter((e) => e.url === body.url).length, 0);
    assert.equal((await call('POST', '/demo/api/webhooks/endpoints', { headers: session, body })).status, 201, 'the page itself may');
  });

  it('signs in as the sandbox merchant in one click only at a loopback name (not a DNS-rebound one), and refuses a wrong secret', async () => {
    const options = await call<{ sandbox_sign_in: boolean }>('GET', '/demo/sign-in');
    assert.equal(options.body.sandbox_sign_in, true);
    const here = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { sandbox: true } });
    assert.equal(here.status, 200);

    // A name the attacker's DNS points at 127.0.0.1: the request arrives from the loopback, under another Host.
    const rebound = `http://attacker.example:${new URL(gw.url).port}`;
    const asRebound = { Host: new URL(rebound).host, Origin: rebound, 'Content-Type': 'application/json' };
    assert.match((await raw(gw.url, 'GET', '/demo/sign-in', asRebound)).body, /"sandbox_sign_in":false/);
    const refused = await raw(gw.url, 'POST', '/demo/sign-in', asRebound, JSON.stringify({ sandbox: true }));
    assert.equal(refused.status, 403);
    assert.equal(refused.cookie, undefined);

    const wrong = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: gw.credentials.clientId, client_secret: 'guess' } });
    assert.deepEqual([wrong.status, wrong.headers.get('set-cookie')], [401, null]);
    const blank = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: '\u200b', client_secret: '' } });
    assert.equal(blank.status, 422);
    assert.deepEqual(blank.body.errors?.map((e) => e.path), ['client_id', 'client_secret']);
    const crossSite = await call('POST', '/demo/sign-in', { headers: { Origin: 'http://localhost:1' }, body: { sandbox: true } });
    assert.equal(crossSite.status, 403, 'no sign-in forced on the merchant by another page');
  });

  it('names its sessions test_session_, and refuses a live client id, client secret or session cookie, naming live', async () => {
    const answer = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: gw.credentials.clientId, client_secret: gw.credentials.clientSecret } });
    assert.match(answer.headers.getSetCookie()[0]!, new RegExp(`^${SESSION_COOKIE}=test_session_[A-Za-z0-9_-]{43};`));
    const live = issueCredentials('live');
    const bodies: [string, Record<string, string>][] = [
      ['client_id', { client_id: live.client_id, client_secret: gw.credentials.clientSecret }],
      ['client_secret', { client_id: gw.credentials.clientId, client_secret: live.client_secret }],
    ];
    for (const [field, body] of bodies) {
      const refused = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body });
      assert.deepEqual([refused.status, refused.headers.get('set-cookie')], [401, null], field);
      assert.match(refused.body.detail!, new RegExp(`^${field} is a live credential \\(it begins live_\\); this gateway is the sandbox`));
    }
    const forged = await call('GET', '/demo/api/session', { headers: { Cookie: `${SESSION_COOKIE}=${issueCredential('live', 'portalSession')}` } });
    assert.equal(forged.status, 401);
    assert.match(forged.body.detail!, /^The session cookie is a live credential \(it begins live_\); this gateway is the sandbox/);
  });

  it('never signs in without the secret through a reverse proxy on this machine (which rewrites Host to the loopback)', async () => {
    const proxyHeaders: Record<string, string>[] = [{ 'X-Forwarded-For': '203.0.113.7' }, { 'X-Real-IP': '203.0.113.7' }, { Forwarded: 'for=203.0.113.7' }, { Via: '1.1 nginx' }];
    for (const header of proxyHeaders) {
      const proxied = await call('POST', '/demo/sign-in', { headers: { Origin: origin, ...header }, body: { sandbox: true } });
      assert.deepEqual([proxied.status, proxied.headers.get('set-cookie')], [403, null], JSON.stringify(header));
      assert.equal((await call<{ sandbox_sign_in: boolean }>('GET', '/demo/sign-in', { headers: header })).body.sandbox_sign_in, false);
    }
  });

  it("limits one merchant's sign-ins a minute, and a thousand of them sign no other merchant out", async () => {
    // A window of its own: the gateway's clock stands still, and the tests before signed in too.
    gw.clock.advance(60_000);
    const other = await gw.addMerchant();
    const theirs = await signIn(other.credentials);
    const first = await signIn(gw.credentials);
    const statuses = new Map<number, number>();
    let refusal: Awaited<ReturnType<typeof call<Problem>>> | undefined;
    for (let i = 0; i < 1_000; i++) {
      const answer = await call<Problem>('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: gw.credentials.clientId, client_secret: gw.credentials.clientSecret } });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 429) refusal ??= answer;
    }
    const limit = gw.gateway.config.limits.signInsPerMerchantPerMinute;
    assert.deepEqual(Object.fromEntries(statuses), { 200: limit - 1, 429: 1_000 - (limit - 1) });
    assert.equal(refusal!.headers.get('content-type'), 'application/problem+json');
    assert.match(refusal!.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
    assert.match(refusal!.body.detail!, /Too many sign-ins for this merchant/);
    assert.equal(refusal!.headers.getSetCookie().length, 0, 'no session');

    assert.equal((await call('GET', '/demo/api/session', { headers: theirs })).status, 200, "another merchant's session lives on");
    await signIn(other.credentials);
    assert.equal((await call('GET', '/demo/api/session', { headers: first })).status, 401, 'the oldest of the one signing in is gone');
    gw.clock.advance(60_000);
    await signIn(gw.credentials);
  });

  it('rolls the client secret: the session that rolled goes on, every other session of the merchant ends, the old secret signs in no more', async () => {
    const other = await gw.addMerchant();
    const rolling = await signIn(other.credentials);
    const stale = await signIn(other.credentials);
    const bystander = await signIn(gw.credentials);
    assert.equal((await call('GET', '/demo/api/transactions', { headers: stale })).status, 200);

    const rolled = await call<{ client_secret: string; previous_secret_expires_at: null }>('POST', '/demo/api/client-secret/roll', { headers: rolling, body: {} });
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.equal(rolled.headers.get('cache-control'), 'no-store');
    assert.equal(rolled.body.previous_secret_expires_at, null);

    assert.equal((await call('GET', '/demo/api/transactions', { headers: rolling })).status, 200, 'the session that rolled goes on');
    assert.equal((await call('POST', '/demo/api/webhooks/endpoints', { headers: rolling, body: { url: 'https://93.184.216.34/pay' } })).status, 201);
    const ended = await call('POST', '/demo/api/webhooks/endpoints', { headers: stale, body: { url: 'https://93.184.216.34/stale' } });
    assert.equal(ended.status, 401, JSON.stringify(ended.body));
    assert.match(ended.body.detail!, /Sign in again/);
    assert.equal((await call('GET', '/demo/api/session', { headers: stale })).status, 401, 'the session is gone');
    await assert.rejects(other.client.listWebhookEndpoints(), (error: { status: number }) => error.status === 401, 'the SDK of the old secret is refused');
    assert.equal((await call('GET', '/demo/api/transactions', { headers: bystander })).status, 200, "another merchant's session lives on");

    const oldSignIn = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: other.credentials.clientId, client_secret: other.credentials.clientSecret } });
    assert.equal(oldSignIn.status, 401);
    assert.equal(oldSignIn.body.detail, SECRET_REPLACED, 'the old secret is said to be replaced, not mistyped');
    const mistyped = await call('POST', '/demo/sign-in', { headers: { Origin: origin }, body: { client_id: other.credentials.clientId, client_secret: 'guess' } });
    assert.equal(mistyped.body.detail, 'The client id and client secret do not match a merchant.');
    await signIn({ clientId: other.credentials.clientId, clientSecret: rolled.body.client_secret });
  });

  it('ends a session on sign-out and after its time', async () => {
    const session = await signIn(gw.credentials);
    assert.equal((await call('DELETE', '/demo/api/session', { headers: session })).status, 204);
    assert.equal((await call('GET', '/demo/api/transactions', { headers: session })).status, 401);

    const later = await signIn(gw.credentials);
    clock += 3_600_000 - 1;
    assert.equal((await call('GET', '/demo/api/transactions', { headers: later })).status, 200);
    clock += 1;
    assert.equal((await call('GET', '/demo/api/transactions', { headers: later })).status, 401);
  });
});
