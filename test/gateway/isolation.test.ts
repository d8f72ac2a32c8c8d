// Two merchants in one database never reach each other (docs/security.md, "Two merchants, one database"). Each has
// links paid through the sandbox, a held payment, a refund, a webhook endpoint with deliveries, a token and a portal
// session (test/helpers/merchants.ts). Random requests of one, across the merchant API and the portal's own, each
// carrying the other's ids, refs, order ids, refund ids, endpoint ids, delivery ids, list cursor, Idempotency-Keys,
// merchant key or session cookie in place of its own, must answer nothing of the other's (no value of its estate in the
// body, unless the request itself carried it), and change nothing of it: the oracle is the victim's state as its own
// token read it before the run. And one merchant's flood of what the per-merchant limits count leaves the other unslowed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_LIMITS } from '../../src/sandbox/config.js';
import { sampleLink, storageName, type TestGateway } from '../helpers/gateway.js';
import { FORM, JSON_TYPE, signedLinkBody } from '../helpers/merchant-api.js';
import { furnish, storedMerchant, type MerchantEstate } from '../helpers/merchants.js';
import { startPortal } from '../helpers/portal.js';

/** Low per-merchant limits, so that a flood reaches them in a few requests. */
const LIMITS = { ...DEFAULT_LIMITS, webhookEndpointAddsPerMerchantPerMinute: 5, signInsPerMerchantPerMinute: 5, failedSecretsPerClientId: 5 };

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Estate extends MerchantEstate {
  /** The `next_cursor` of the first page of one link of its list. */
  cursor: string;
}

type Template = (victim: Estate, attacker: Estate, pick: number) => Sent;

const at = <T>(values: readonly T[], pick: number): T => values[pick % values.length]!;
const refundBody = JSON.stringify({ amount: 1_000, channel: 'PROVIDER', description: 'not yours', refund_type: 'partial', refund_reason: 'not yours' });

const bearer = (attacker: Estate, method: string, path: string, body?: string, extra: Record<string, string> = {}): Sent => ({
  method,
  path,
  headers: { Authorization: `Bearer ${attacker.token}`, ...(body === undefined ? {} : JSON_TYPE), ...extra },
  body,
});

/** A portal request as the attacker's own page sends it (its cookie, Origin and CSRF token). */
const portal = (origin: string, session: { cookie: string; csrf: string }, method: string, path: string, body?: string): Sent => ({
  method,
  path,
  headers: { Cookie: session.cookie, Origin: origin, 'X-CSRF-Token': session.csrf, ...JSON_TYPE },
  body: body ?? (method === 'GET' || method === 'DELETE' ? undefined : '{}'),
});

/** Every route of the merchant API and the portal that takes an id, each given one of the victim's. */
function templates(origin: string): Record<string, Template> {
  const own = (a: Estate) => a.session;
  return {
    link: (v, a, p) => bearer(a, 'GET', `/api/paymentLink/${at(v.refs, p)}`),
    'list by order': (v, a, p) => bearer(a, 'GET', `/api/paymentLink?merchant_order_id=${at(v.orderIds, p)}`),
    search: (v, a, p) => bearer(a, 'GET', `/api/paymentLink?q=${encodeURIComponent(at([...v.orderIds, ...v.refs, ...v.paymentIds, ...v.addresses, v.credentials.name], p))}`),
    'list from cursor': (v, a) => bearer(a, 'GET', `/api/paymentLink?limit=1&cursor=${encodeURIComponent(v.cursor)}`),
    'create refund': (v, a, p) => bearer(a, 'POST', `/api/refund/createRefund/${at(v.orderIds, p)}`, refundBody),
    'refund with its key': (v, a, p) => bearer(a, 'POST', `/api/refund/createRefund/${a.orderIds[0]}`, refundBody, { 'Idempotency-Key': at(v.idempotencyKeys, p) }),
    refunds: (v, a, p) => bearer(a, 'GET', `/api/refund/getDataByTransaction/${at(v.orderIds, p)}`),
    'refund resources': (v, a, p) => bearer(a, 'GET', `/api/refunds?order_id=${at(v.orderIds, p)}`),
    refund: (v, a, p) => bearer(a, 'GET', `/api/refunds/${at(v.refundIds, p)}`),
    cancel: (v, a, p) => bearer(a, 'POST', `/api/refunds/${at(v.refundIds, p)}/cancel`, '{}'),
    retry: (v, a, p) => bearer(a, 'POST', `/api/refunds/${at(v.refundIds, p)}/retry`),
    accept: (v, a, p) => bearer(a, 'POST', `/api/payments/${at([v.heldPaymentId, ...v.paymentIds], p)}/accept`),
    'cancel link': (v, a, p) => bearer(a, 'POST', `/api/paymentLink/${at(v.refs, p)}/cancel`),
    'remove endpoint': (v, a, p) => bearer(a, 'DELETE', `/api/webhooks/endpoints/${at(v.endpointIds, p)}`),
    deliveries: (v, a, p) => bearer(a, 'GET', `/api/webhooks/endpoints/${at(v.endpointIds, p)}/deliveries`),
    'own deliveries of its link': (v, a, p) => bearer(a, 'GET', `/api/webhooks/endpoints/${a.endpointIds[0]}/deliveries?payment_link_ref=${at(v.refs, p)}`),
    'test event': (v, a, p) => bearer(a, 'POST', `/api/webhooks/endpoints/${at(v.endpointIds, p)}/test`),
    delivery: (v, a, p) => bearer(a, 'GET', `/api/webhooks/deliveries/${at(v.deliveryIds, p)}`),
    redeliver: (v, a, p) => bearer(a, 'POST', `/api/webhooks/deliveries/${at(v.deliveryIds, p)}/redeliver`),
    'endpoint with its key': (v, a, p) => bearer(a, 'POST', '/api/webhooks/endpoints', JSON.stringify({ url: `http://127.0.0.1:9/mine/${p}` }), { 'Idempotency-Key': at(v.idempotencyKeys, p) }),
    'link with its key': (v, a) => ({ method: 'POST', path: '/api/paymentLink', headers: JSON_TYPE, body: JSON.stringify(signedLinkBody({ merchantKey: v.credentials.merchantKey, clientSecret: a.credentials.clientSecret })) }),
    // Order ids are each merchant's own: the other's is free for this one, and a 409 would tell that the other has it.
    'link for its order': (v, a, p) => ({ method: 'POST', path: '/api/paymentLink', headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(a.credentials, sampleLink({ merchant_order_id: at(v.orderIds, p) }))) }),
    'token with its client id': (v, a) => ({
      method: 'POST',
      path: '/api/v2/oauth/token',
      headers: FORM,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: v.credentials.clientId, client_secret: a.credentials.clientSecret }).toString(),
    }),
    'portal order': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/orders/${at(v.orderIds, p)}`),
    'portal refunds': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/orders/${at(v.orderIds, p)}/refunds`),
    'portal refund': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/orders/${at(v.orderIds, p)}/refunds`, refundBody),
    'portal accept': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/payments/${at([v.heldPaymentId, ...v.paymentIds], p)}/accept`),
    'portal cancel link': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/payment-links/${at(v.refs, p)}/cancel`),
    'portal cancel': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/refunds/${at(v.refundIds, p)}/cancel`),
    'portal retry': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/refunds/${at(v.refundIds, p)}/retry`),
    'portal claim': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/refunds/${at(v.refundIds, p)}/claim-with-test-wallet`),
    'portal remove endpoint': (v, a, p) => portal(origin, own(a), 'DELETE', `/demo/api/webhooks/endpoints/${at(v.endpointIds, p)}`),
    'portal deliveries': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/webhooks/endpoints/${at(v.endpointIds, p)}/deliveries`),
    'portal test event': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/webhooks/endpoints/${at(v.endpointIds, p)}/test`),
    'portal delivery': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/webhooks/deliveries/${at(v.deliveryIds, p)}`),
    'portal redeliver': (v, a, p) => portal(origin, own(a), 'POST', `/demo/api/webhooks/deliveries/${at(v.deliveryIds, p)}/redeliver`),
    'portal search': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/transactions?q=${encodeURIComponent(at([...v.orderIds, ...v.refs, ...v.addresses], p))}`),
    'portal export': (v, a, p) => portal(origin, own(a), 'GET', `/demo/api/transactions.csv?q=${encodeURIComponent(at([...v.orderIds, ...v.refs], p))}`),
    'portal receiver': (_v, a) => portal(origin, own(a), 'GET', '/demo/api/webhooks/receiver'),
    // The victim's cookie with the attacker's CSRF token: refused before anything is done.
    'its cookie, own token': (v, a, p) => portal(origin, { cookie: v.session.cookie, csrf: a.session.csrf }, 'POST', `/demo/api/refunds/${at(v.refundIds, p)}/cancel`),
    'its cookie signed out': (v, a) => portal(origin, { cookie: v.session.cookie, csrf: a.session.csrf }, 'DELETE', '/demo/api/session'),
  };
}

/** The victim's state as its own token and session read it: what no request of the other may change. */
async function stateOf(gw: TestGateway, estate: Estate): Promise<unknown> {
  const read = async (path: string) => {
    const response = await fetch(new URL(path, gw.url), { headers: { Authorization: `Bearer ${estate.token}` } });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const links = await read('/api/paymentLink?limit=200');
  const each = async (paths: string[]) => Promise.all(paths.map(read));
  const deliveries = await each(estate.endpointIds.map((id) => `/api/webhooks/endpoints/${id}/deliveries`));
  const session = await fetch(new URL('/demo/api/session', gw.url), { headers: { Cookie: estate.session.cookie } });
  return {
    links,
    each: await each(estate.refs.map((ref) => `/api/paymentLink/${ref}`)),
    refunds: await each(estate.orderIds.flatMap((order) => [`/api/refund/getDataByTransaction/${order}`, `/api/refunds?order_id=${order}`])),
    endpoints: await read('/api/webhooks/endpoints'),
    deliveries,
    details: await each(estate.deliveryIds.map((id) => `/api/webhooks/deliveries/${id}`)),
    session: { status: session.status, body: await session.json() },
  };
}

/** Every string in a JSON value. */
function strings(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

describe(`two merchants in one database (${storageName})`, () => {
  let gw: TestGateway;
  const estates: Estate[] = [];
  const secrets: Set<string>[] = [];
  const before_: unknown[] = [];

  before(async () => {
    gw = await startPortal({}, { config: { limits: LIMITS } });
    const other = await storedMerchant(gw, 'Tiệm Bánh Mì Kia');
    for (const [credentials, client] of [[gw.credentials, gw.client], [other.credentials, other.client]] as const) {
      const estate = await furnish(gw, credentials, client);
      const page = (await (await fetch(new URL('/api/paymentLink?limit=1', gw.url), { headers: { Authorization: `Bearer ${estate.token}` } })).json()) as { next_cursor: string };
      estates.push({ ...estate, cursor: page.next_cursor });
    }
    for (const estate of estates) before_.push(await stateOf(gw, estate));
    // What is the victim's alone: every string of its state and estate that the other's state does not also hold
    // (the sample order's lines, a shared timestamp), and long enough to be its own.
    const texts = estates.map((estate, i) => strings(before_[i], strings(estate)));
    const other_ = (i: number) => JSON.stringify(before_[1 - i]) + JSON.stringify(estates[1 - i]);
    for (const [i, text] of texts.entries()) secrets.push(new Set([...text].filter((s) => s.length >= 8 && !other_(i).includes(s))));
  });
  after(() => gw?.close());

  // First: the property's wrong secrets for the other's client id count against it (docs/security.md, "Limits").
  it("is not slowed or refused for one merchant's flood of what the per-merchant limits count", async (t) => {
    const [flooder, other] = [estates[0]!, estates[1]!];
    const origin = new URL(gw.url).origin;
    const timed = async (sent: Sent) => {
      const started = performance.now();
      const response = await fetch(new URL(sent.path, gw.url), { method: sent.method, headers: sent.headers, body: sent.body });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started };
    };
    const add = (e: Estate, n: number) => bearer(e, 'POST', '/api/webhooks/endpoints', JSON.stringify({ url: `http://127.0.0.1:9/flood/${n}` }));
    const signIn = (e: Estate, secret = e.credentials.clientSecret): Sent => ({
      method: 'POST',
      path: '/demo/sign-in',
      headers: { Origin: origin, ...JSON_TYPE },
      body: JSON.stringify({ client_id: e.credentials.clientId, client_secret: secret }),
    });
    const otherBefore = await Promise.all([timed(add(other, 0)), timed(signIn(other))]);
    // The other merchant's own requests in the middle of the flood, and after it.
    const [during, ...flood] = await Promise.all([
      Promise.all([timed(add(other, 1)), timed(signIn(other))]),
      ...Array.from({ length: 3 * LIMITS.webhookEndpointAddsPerMerchantPerMinute }, (_, n) => timed(add(flooder, n))),
      ...Array.from({ length: 3 * LIMITS.signInsPerMerchantPerMinute }, () => timed(signIn(flooder))),
      ...Array.from({ length: 3 * LIMITS.failedSecretsPerClientId }, () => timed(signIn(flooder, 'wrong'))),
    ]);
    const refused = (flood as { status: number }[]).filter((r) => r.status === 429).length;
    assert.ok(refused > 0, 'the flood reached its limits');
    const otherAfter = await Promise.all([timed(add(other, 2)), timed(signIn(other))]);
    const figures = (rs: { status: number; ms: number }[]) => rs.map((r) => `${r.status} in ${Math.round(r.ms)} ms`).join(', ');
    t.diagnostic(`flood: ${flood.length} requests, ${refused} refused 429; the other merchant before: ${figures(otherBefore)}; during: ${figures(during)}; after: ${figures(otherAfter)}`);
    assert.deepEqual([...during, ...otherAfter].map((r) => r.status), [201, 200, 201, 200]);
  });

  it('answers nothing of the other merchant to random requests carrying its ids, and changes nothing of it', async (t) => {
    const origin = new URL(gw.url).origin;
    const all = templates(origin);
    const names = Object.keys(all);
    let requests = 0;
    /**
     * The other's order ids each merchant (by client id) has made a link of its own for: a second link for one is its
     * own 409, and its own links may name them.
     */
    const ordersTaken = new Map(estates.map((e) => [e.credentials.clientId, new Set<string>()]));
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1),
        fc.array(fc.record({ name: fc.constantFrom(...names), pick: fc.nat(20) }), { minLength: 1, maxLength: 8 }),
        async (victimIndex, steps) => {
          const [victim, attacker] = [estates[victimIndex]!, estates[1 - victimIndex]!];
          // The attacker's own requests may change its own state (a refund of its own order under the other's
          // Idempotency-Key, say); the victim's must be as its own token read it before the run.
          const victimBefore = await stateOf(gw, victim);
          for (const { name, pick } of steps) {
            const sent = all[name]!(victim, attacker, pick);
            const response = await fetch(new URL(sent.path, gw.url), { method: sent.method, headers: sent.headers, body: sent.body });
            const body = await response.text();
            requests++;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            assert.ok(response.status < 500, `${name}: ${sent.method} ${sent.path} answered ${response.status}: ${body}`);
            const taken = ordersTaken.get(attacker.credentials.clientId)!;
            if (name === 'link for its order') {
              const order = at(victim.orderIds, pick);
              assert.equal(response.status, taken.has(order) ? 409 : 201, `${name}: ${body}`);
              taken.add(order);
            }
            const asked = JSON.stringify(sent);
            const leaked = [...secrets[victimIndex]!].filter((s) => !asked.includes(s) && !taken.has(s) && body.includes(s));
            assert.deepEqual(leaked, [], `${name}: ${sent.method} ${sent.path} answered ${response.status} with the other merchant's ${leaked.join(', ')}: ${body}`);
          }
          assert.deepEqual(await stateOf(gw, victim), victimBefore, `the victim's state changed after ${steps.map((s) => s.name).join(', ')}`);
        },
      ),
      { numRuns: 25 },
    );
    t.diagnostic(`${requests} requests; statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; ${secrets.map((s) => s.size).join(' and ')} values of each merchant's own looked for`);
  });
});
