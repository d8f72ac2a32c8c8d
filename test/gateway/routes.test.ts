// Every route as its declaration (src/sandbox/routes/) says: each is sent real requests that its declared schemas
// accept, and answers them with the successes it declares (all of them between its requests), each in its declared
// schema, which names every member of the answer, or in its declared media type. A route that takes an
// Idempotency-Key replays its first answer; a Bearer route, and the signed one, refuse a request without credentials.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { Problem } from '../../src/contract/index.js';
import { ROUTES } from '../../src/sandbox/routes/index.js';
import { isMedia, type Body, type Declaration } from '../../src/sandbox/routes/route.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { accessToken, FORM, JSON_TYPE, paidOrder, signedLinkBody } from '../helpers/merchant-api.js';

/** One request to a route: its path with the parameters (and any query) filled in, and a JSON body or a form. */
interface Exchange {
  path: string;
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Headers;
  /** The JSON, the text, or nothing for an event stream (it is left once its headers came). */
  body: unknown;
}

const OPEN_USDT = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;
const REFUND = { amount: 1_000, channel: 'PROVIDER', description: 'returned goods', refund_type: 'partial', refund_reason: 'damaged' } as const;

const mediaType = (headers: Headers) => headers.get('Content-Type')?.split(';')[0]?.trim();

/** The members of `value` (by path) that `parsed`, its parse, lacks. */
function unnamed(value: unknown, parsed: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null || typeof parsed !== 'object' || parsed === null) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key in parsed ? unnamed(member, (parsed as Record<string, unknown>)[key], `${path}${key}.`) : [`${path}${key}`],
  );
}

/** `/api/checkout/{ref}` as a pattern that names each parameter. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);

describe(`every declared route, sent a request (${storageName})`, () => {
  const gw = useTestGateway({ token: true });

  const link = async () => (await gw.client.createPaymentLink(sampleLink())).payment_link_ref;
  async function openPayment() {
    const ref = await link();
    return { ref, payment: (await gw.gateway.customerCheckout.open(ref, OPEN_USDT)).payment };
  }
  /** A full payment after its quote closed: held for the merchant as paid_late. */
  async function heldPayment() {
    const { payment } = await openPayment();
    await gw.gateway.sandboxControls.expireQuote({ payment_id: payment.payment_id });
    gw.clock.advance(1000);
    await gw.gateway.wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await gw.gateway.sandboxControls.mine(payment.confirmations_required, 'TRON');
    return payment;
  }
  /** A PENDING refund of a paid order, waiting for its claim. */
  async function madeRefund() {
    const { orderId } = await paidOrder(gw);
    const { refundDetails } = await gw.client.createRefund(orderId, REFUND);
    return { orderId, refund_id: refundDetails[0]!.refund_id, claim_url: refundDetails[0]!.claim_url! };
  }
  const claimPath = (url: string) => new URL(url).pathname + new URL(url).search;
  const endpoint = () => gw.client.addWebhookEndpoint(`http://127.0.0.1:9/${randomUUID()}`);
  /** An endpoint with one delivery waiting: a payment confirming after the endpoint was added. */
  async function delivery() {
    const { endpoint_id } = await endpoint();
    const { ref, payment } = await openPayment();
    await gw.gateway.wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    const [first] = await gw.client.getWebhookDeliveries(endpoint_id);
    assert.ok(first, 'a delivery of the payment event');
    return { endpoint_id, ref, delivery_id: first.delivery_id };
  }
  async function etag(path: string) {
    const response = await fetch(new URL(path, gw.url));
    await response.arrayBuffer();
    return response.headers.get('ETag') ?? '';
  }

  /** Requests for each route, by `METHOD path` as declared: between them they reach every success it declares. */
  const SAMPLES: Record<string, () => Promise<Exchange[]>> = {
    'POST /api/v2/oauth/token': async () => [
      {
        path: '/api/v2/oauth/token',
        form: { grant_type: 'client_credentials', client_id: gw.credentials.clientId, client_secret: gw.credentials.clientSecret },
      },
    ],
    // Another merchant's: a roll ends the old secret and its tokens, which the other routes' requests use.
    'POST /api/merchant/client-secret/roll': async () => {
      const { credentials } = await gw.addMerchant();
      return [{ path: '/api/merchant/client-secret/roll', body: { expires_in: 60 }, headers: { Authorization: `Bearer ${await accessToken(gw.url, credentials)}` } }];
    },
    'POST /api/paymentLink': async () => [{ path: '/api/paymentLink', body: signedLinkBody(gw.credentials) }],
    'GET /api/paymentLink': async () => {
      await link();
      return [{ path: '/api/paymentLink?status=active&limit=2' }];
    },
    'GET /api/paymentLink/{payment_link_ref}': async () => [{ path: `/api/paymentLink/${await link()}` }],
    'POST /api/paymentLink/{payment_link_ref}/cancel': async () => [{ path: `/api/paymentLink/${await link()}/cancel` }],
    'POST /api/refund/createRefund/{order_id}': async () => [{ path: `/api/refund/createRefund/${(await paidOrder(gw)).orderId}`, body: REFUND }],
    'GET /api/refund/getDataByTransaction/{order_id}': async () => {
      const { orderId } = await paidOrder(gw);
      await gw.client.createRefund(orderId, REFUND);
      return [{ path: `/api/refund/getDataByTransaction/${orderId}` }];
    },
    'GET /api/refunds': async () => [{ path: `/api/refunds?order_id=${(await madeRefund()).orderId}` }],
    'GET /api/refunds/{refund_id}': async () => [{ path: `/api/refunds/${(await madeRefund()).refund_id}` }],
    'GET /api/payouts/wallets': async () => [{ path: '/api/payouts/wallets' }],
    'POST /api/refunds/{refund_id}/cancel': async () => [{ path: `/api/refunds/${(await madeRefund()).refund_id}/cancel`, body: { reason: 'asked by mistake' } }],
    'POST /api/refunds/{refund_id}/retry': async () => {
      const { refund_id } = await madeRefund();
      await gw.client.cancelRefund(refund_id);
      return [{ path: `/api/refunds/${refund_id}/retry` }];
    },
    'GET /refunds/claim': async () => [{ path: claimPath((await madeRefund()).claim_url) }],
    'POST /refunds/claim': async () => [{ path: claimPath((await madeRefund()).claim_url), form: { address: gw.gateway.wallet.addresses.TRON!, confirm: 'yes' } }],
    'POST /api/payments/{payment_id}/accept': async () => [{ path: `/api/payments/${(await heldPayment()).payment_id}/accept` }],
    'GET /api/webhooks/endpoints': async () => {
      await endpoint();
      return [{ path: '/api/webhooks/endpoints' }];
    },
    'POST /api/webhooks/endpoints': async () => [{ path: '/api/webhooks/endpoints', body: { url: `http://127.0.0.1:9/${randomUUID()}` } }],
    'DELETE /api/webhooks/endpoints/{endpoint_id}': async () => [{ path: `/api/webhooks/endpoints/${(await endpoint()).endpoint_id}` }],
    'GET /api/webhooks/endpoints/{endpoint_id}/deliveries': async () => {
      const { endpoint_id, ref } = await delivery();
      return [{ path: `/api/webhooks/endpoints/${endpoint_id}/deliveries?payment_link_ref=${ref}` }];
    },
    'POST /api/webhooks/endpoints/{endpoint_id}/test': async () => [{ path: `/api/webhooks/endpoints/${(await endpoint()).endpoint_id}/test` }],
    'GET /api/webhooks/deliveries/{delivery_id}': async () => [{ path: `/api/webhooks/deliveries/${(await delivery()).delivery_id}` }],
    'POST /api/webhooks/deliveries/{delivery_id}/redeliver': async () => [{ path: `/api/webhooks/deliveries/${(await delivery()).delivery_id}/redeliver` }],
    'GET /api/events': async () => {
      await paidOrder(gw);
      const [first] = (await gw.client.events.list({ limit: 1 })).data;
      return [{ path: '/api/events' }, { path: `/api/events?after=${first!.id}&limit=2&type=payment.paid` }];
    },
    'GET /api/events/{event_id}': async () => {
      await paidOrder(gw);
      return [{ path: `/api/events/${(await gw.client.events.list({ limit: 1 })).data[0]!.id}` }];
    },
    'GET /api/checkout/{ref}': async () => [{ path: `/api/checkout/${await link()}` }],
    'POST /api/checkout/{ref}/payments': async () => {
      const path = `/api/checkout/${await link()}/payments`;
      // The second finds the payment the first opened.
      return [
        { path, body: { ...OPEN_USDT, customer: { name: 'An', email: 'an@example.com' } } },
        { path, body: OPEN_USDT },
      ];
    },
    'GET /api/checkout/{ref}/payments/{payment_id}': async () => {
      const { ref, payment } = await openPayment();
      return [{ path: `/api/checkout/${ref}/payments/${payment.payment_id}` }];
    },
    'GET /api/checkout/{ref}/events': async () => {
      const { ref } = await openPayment();
      return [
        { path: `/api/checkout/${ref}/events` },
        { path: `/api/checkout/${ref}/events`, headers: { 'Last-Event-ID': '1' } },
        { path: `/api/checkout/${ref}/events?lastEventId=1` },
      ];
    },
    'GET /sandbox/wallet': async () => [{ path: '/sandbox/wallet' }],
    'POST /sandbox/wallet/faucet': async () => [{ path: '/sandbox/wallet/faucet' }],
    'POST /sandbox/wallet/transfers': async () => {
      const { payment } = await openPayment();
      return [{ path: '/sandbox/wallet/transfers', body: { to: payment.address, asset: 'USDT', network: 'TRON', amount: '1.5' } }];
    },
    'GET /sandbox/tester-panel.js': async () => [
      { path: '/sandbox/tester-panel.js' },
      { path: '/sandbox/tester-panel.js', headers: { 'If-None-Match': await etag('/sandbox/tester-panel.js') } },
    ],
    'GET /sandbox/chain': async () => [{ path: '/sandbox/chain' }],
    'POST /sandbox/chain/mine': async () => [{ path: '/sandbox/chain/mine', body: { blocks: 2, network: 'TRON' } }],
    'POST /sandbox/payments/{payment_id}/expire-quote': async () => [{ path: `/sandbox/payments/${(await openPayment()).payment.payment_id}/expire-quote` }],
    'POST /sandbox/addresses/{address}/expire-quote': async () => [{ path: `/sandbox/addresses/${(await openPayment()).payment.address}/expire-quote` }],
    'POST /sandbox/payment-links/{ref}/expire': async () => [{ path: `/sandbox/payment-links/${await link()}/expire` }],
    'GET /pay-checkout.js': async () => [
      { path: '/pay-checkout.js' },
      { path: '/pay-checkout.js', headers: { 'If-None-Match': await etag('/pay-checkout.js') } },
    ],
    'GET /pay-checkout.js.map': async () => [
      { path: '/pay-checkout.js.map' },
      { path: '/pay-checkout.js.map', headers: { 'If-None-Match': await etag('/pay-checkout.js.map') } },
    ],
    'GET /pay-checkout/{chunk}': async () => {
      const chunk = readdirSync(new URL('../../dist/pay-checkout/', import.meta.url)).find((f) => f.endsWith('.js'));
      return [{ path: `/pay-checkout/${chunk}` }, { path: `/pay-checkout/${chunk}`, headers: { 'If-None-Match': await etag(`/pay-checkout/${chunk}`) } }];
    },
    'GET /checkout': async () => [{ path: `/checkout?ref=${await link()}` }],
    'GET /receipt': async () => [{ path: `/receipt?ref=${await link()}` }],
    'GET /openapi.json': async () => [{ path: '/openapi.json' }],
    'GET /healthz': async () => [{ path: '/healthz' }],
    'GET /readyz': async () => [{ path: '/readyz' }],
    'GET /metrics': async () => [{ path: '/metrics' }],
  };

  async function send(route: Declaration, exchange: Exchange, credentials: Record<string, string> = { Authorization: `Bearer ${gw.token}` }): Promise<Answer> {
    const headers = {
      ...(route.spec.auth === 'bearer' && credentials),
      ...(exchange.body && JSON_TYPE),
      ...(exchange.form && FORM),
      ...exchange.headers,
    };
    const body = exchange.body ? JSON.stringify(exchange.body) : exchange.form && new URLSearchParams(exchange.form);
    const response = await fetch(new URL(exchange.path, gw.url), { method: route.method.toUpperCase(), headers, body });
    if (mediaType(response.headers) === 'text/event-stream') {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: undefined };
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: /json/.test(mediaType(response.headers) ?? '') && text ? JSON.parse(text) : text };
  }

  /** The request is one the declaration describes: its path, query, path parameters and body. */
  function assertDeclaredRequest({ path, spec }: Declaration, exchange: Exchange) {
    const url = new URL(exchange.path, gw.url);
    const match = pathPattern(path).exec(url.pathname);
    assert.ok(match, `${exchange.path} is not a path of ${path}`);
    for (const [name, schema] of Object.entries(spec.params ?? {})) {
      // A parameter declared as a number is written in digits.
      const raw = match.groups![name]!;
      assert.ok(schema.safeParse(/^\d+$/.test(raw) ? Number(raw) : raw).success, `path parameter ${name}=${raw}`);
    }
    const { lastEventId, ...query } = Object.fromEntries(url.searchParams);
    if (lastEventId !== undefined) assert.ok(spec.lastEventId && /^\d{1,15}$/.test(lastEventId), 'a lastEventId the route does not declare');
    if (spec.query) assertParses(spec.query, query, 'the query');
    else assert.deepEqual(query, {}, 'a query the route does not declare');
    if (!spec.body) assert.ok(!exchange.body && !exchange.form, 'a body the route does not declare');
    else if ('form' in spec.body) assertParses(spec.body.form, exchange.form, 'the form');
    else assertParses(spec.body, exchange.body, 'the body');
  }

  /** The answer is what the declaration says: its schema (and no member it does not name), its media type, no body, or a problem. */
  function assertDeclaredAnswer(answer: Answer, declared: Body | null | undefined) {
    if (declared === undefined) {
      assert.equal(mediaType(answer.headers), 'application/problem+json');
      assertParses(Problem, answer.body, `the ${answer.status} problem`);
    } else if (declared === null) {
      assert.equal(answer.body, '', `a ${answer.status} without a body`);
    } else if (isMedia(declared)) {
      assert.equal(mediaType(answer.headers), declared.type);
    } else {
      assert.equal(mediaType(answer.headers), 'application/json');
      assertParses(declared, answer.body, `the ${answer.status} answer`);
    }
  }

  /** `value` parses with `schema`, which names every member of it (parsing would drop one it does not). */
  function assertParses(schema: z.ZodMiniType, value: unknown, what: string) {
    const result = schema.safeParse(value);
    assert.ok(result.success, `${what} breaks its declared schema:\n${result.success ? '' : z.prettifyError(result.error)}\n${JSON.stringify(value)}`);
    assert.deepEqual(unnamed(value, result.data), [], `${what} has members its declared schema does not name`);
  }

  for (const route of ROUTES) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    it(name, async () => {
      const sample = SAMPLES[name];
      assert.ok(sample, `no sample request for ${name} in test/gateway/routes.test.ts`);
      const exchanges = await sample();
      if (route.spec.idempotent) exchanges[0]!.headers = { ...exchanges[0]!.headers, 'Idempotency-Key': randomUUID() };
      const seen = new Set<number>();
      let first: Answer | undefined;
      for (const exchange of exchanges) {
        assertDeclaredRequest(route, exchange);
        const answer = await send(route, exchange);
        assert.ok(answer.status in route.spec.ok, `${exchange.path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        assertDeclaredAnswer(answer, route.spec.ok[answer.status]);
        seen.add(answer.status);
        first ??= answer;
      }
      assert.deepEqual([...seen].sort(), Object.keys(route.spec.ok).map(Number).sort(), 'the samples reach every declared success');

      if (route.spec.idempotent) {
        assert.equal(first!.headers.get('Idempotent-Replayed'), null);
        const replay = await send(route, exchanges[0]!);
        assert.equal(replay.status, first!.status);
        assert.equal(replay.headers.get('Idempotent-Replayed'), 'true');
        assert.deepEqual(replay.body, first!.body);
      }
      if (route.spec.auth === 'bearer') {
        const refused = await send(route, { ...exchanges[0]!, headers: {} }, {});
        assert.equal(refused.status, 401);
        assert.match(refused.headers.get('WWW-Authenticate') ?? '', /^Bearer /);
        assertDeclaredAnswer(refused, undefined);
      }
      if (route.spec.auth === 'signature') {
        const { signature_hash: _none, ...unsigned } = exchanges[0]!.body!;
        const refused = await send(route, { ...exchanges[0]!, body: unsigned, headers: {} });
        assert.equal(refused.status, 401);
        assertDeclaredAnswer(refused, undefined);
      }
    });
  }

  it('has samples for declared routes only', () => {
    const declared = new Set(ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    assert.deepEqual(
      Object.keys(SAMPLES).filter((name) => !declared.has(name)),
      [],
    );
  });
});
