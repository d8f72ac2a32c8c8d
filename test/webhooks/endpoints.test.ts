// Webhook endpoint URLs (docs/security.md): https: to public addresses only, the host's DNS answers included,
// checked when the endpoint is added and again at every delivery, which connects to the very addresses checked.
// Loopback, http: included, only when the sandbox allows it (SANDBOX_ALLOW_LOCAL_WEBHOOKS=1, as `npm start` does), and
// then only for its own receivers (SANDBOX_WEBHOOK_URL and the demo's).
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { describe, it, mock } from 'node:test';
import fc from 'fast-check';
import type { Problem } from '../../src/contract/index.js';
import { log } from '../../src/sandbox/logging.js';
import { systemResolve } from '../../src/sandbox/services/webhooks/targets.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { accessToken, JSON_TYPE, send } from '../helpers/merchant-api.js';

const PUBLIC = '93.184.216.34';

/** Names of the tests' own: a fixed answer, or one per lookup in turn (a host that changes its answer). */
function fakeDns(names: Record<string, string[] | string[][]>) {
  const asked: Record<string, number> = {};
  const resolve = async (hostname: string) => {
    const answer = names[hostname];
    if (!answer) return systemResolve(hostname);
    const nth = (asked[hostname] = (asked[hostname] ?? 0) + 1) - 1;
    return (Array.isArray(answer[0]) ? (answer as string[][])[Math.min(nth, answer.length - 1)]! : (answer as string[]));
  };
  return { resolve, asked };
}

/** A TCP port that counts connections and never answers: the proof that nothing was sent there. */
async function listener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe(`webhook endpoint URLs (${storageName})`, () => {
  const dns = fakeDns({
    'public.shop.test': [PUBLIC],
    'internal.shop.test': ['10.1.2.3'],
    'loopback.shop.test': ['127.0.0.1'],
    'mixed.shop.test': [PUBLIC, '192.168.1.20'],
    'metadata.shop.test': ['169.254.169.254'],
    'v6-internal.shop.test': ['fd00::5'],
    // A name that resolves nowhere (here), as an internal name like metadata.google.internal does outside its network.
    'metadata.google.invalid': [],
    // Public when the endpoint is added, loopback by the time of the delivery.
    'rebind.shop.test': [[PUBLIC], ['127.0.0.1']],
    // Public at every lookup but the third, which would reach the loopback: a delivery must look up only once.
    'flip.shop.test': [[PUBLIC], [PUBLIC], ['127.0.0.1']],
    // Public when added, loopback for two deliveries, public again after.
    'flap.shop.test': [[PUBLIC], ['127.0.0.1'], ['127.0.0.1'], [PUBLIC]],
  });

  const gw = useTestGateway({ config: { allowLocalWebhooks: false, webhookTimeoutMs: 2_000 }, resolve: dns.resolve, reset: true, token: true });
  const auth = () => ({ Authorization: `Bearer ${gw.token}`, ...JSON_TYPE });

  const add = (url: string) => send<Problem & { endpoint_id: string }>(gw.url, 'POST', '/api/webhooks/endpoints', { headers: auth(), body: JSON.stringify({ url }) });

  /** An endpoint at `url`, then a paid link, so its events are due there; resolves with the endpoint's id. */
  async function paidLinkFor(url: string): Promise<string> {
    const { endpoint_id } = await gw.client.addWebhookEndpoint(url);
    await gw.markPaid((await gw.client.createPaymentLink(sampleLink())).payment_link_ref);
    return endpoint_id;
  }

  async function assertRefused(url: string, rule: RegExp = /public address|https: URL/) {
    const answer = await add(url);
    assert.equal(answer.status, 422, `${url}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    assert.deepEqual(answer.body.errors?.map((e) => e.path), ['url'], url);
    assert.match(answer.body.errors![0]!.message, rule, url);
  }

  const refused: [string, RegExp?][] = [
    ['https://169.254.169.254/latest/meta-data/'],
    ['https://10.0.0.1/hooks'],
    ['https://10.255.255.254/hooks'],
    ['https://172.16.0.1/hooks'],
    ['https://172.31.255.254/hooks'],
    ['https://192.168.0.1/hooks'],
    ['https://192.168.255.254/hooks'],
    ['https://[fc00::1]/hooks'],
    ['https://[fdff:ffff::1]/hooks'],
    ['https://[::1]/hooks'],
    ['https://[::ffff:127.0.0.1]/hooks'],
    ['https://[::ffff:169.254.169.254]/hooks'],
    ['https://127.0.0.1/hooks'],
    ['https://0.0.0.0/hooks'],
    ['https://100.64.0.1/hooks'],
    ['https://2130706433/hooks'], // 127.0.0.1 as the URL parser reads it
    ['https://0x7f.1/hooks'],
    ['https://localhost/hooks', /localhost resolves to 127\.0\.0\.1/],
    ['https://loopback.shop.test/hooks', /loopback\.shop\.test resolves to 127\.0\.0\.1/],
    ['https://internal.shop.test/hooks', /resolves to 10\.1\.2\.3/],
    ['https://mixed.shop.test/hooks', /resolves to 93\.184\.216\.34, 192\.168\.1\.20/],
    ['https://metadata.shop.test/hooks'],
    ['https://v6-internal.shop.test/hooks'],
    ['https://metadata.google.invalid/computeMetadata/v1/', /must name a host that resolves to a public address \(metadata\.google\.invalid does not resolve\)/],
    ['http://public.shop.test/hooks', /https: URL/],
    [`http://${PUBLIC}/hooks`, /https: URL/],
    ['http://localhost:4010/demo/webhook-receiver', /https: URL/],
    ['ftp://public.shop.test/hooks', /https: URL/],
    ['https://user:pass@public.shop.test/hooks', /https: URL|user name/],
  ];
  for (const [url, rule] of refused) {
    it(`refuses ${url}, naming url`, async () => {
      await assertRefused(url, rule);
      assert.deepEqual(await gw.client.listWebhookEndpoints(), [], 'nothing stored');
    });
  }

  it('refuses every address in the private, loopback, link-local and unique local ranges (property)', async () => {
    const byte = fc.integer({ min: 0, max: 255 });
    const v4 = fc.oneof(
      fc.tuple(fc.constant(10), byte, byte, byte),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
      fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
      fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
      fc.tuple(fc.constant(127), byte, byte, byte),
    ).map((octets) => octets.join('.'));
    const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const v6 = fc
      .tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), fc.array(hextet, { minLength: 7, maxLength: 7 }))
      .map(([first, rest]) => `[${[first.toString(16), ...rest].join(':')}]`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(v4, v6), async (host) => {
        const answer = await add(`https://${host}/hooks`);
        assert.equal(answer.status, 422, host);
        assert.equal(answer.body.errors?.[0]?.path, 'url');
      }),
      { numRuns: 60 },
    );
  });

  it('takes https: to public addresses', async () => {
    for (const url of ['https://public.shop.test/hooks', `https://${PUBLIC}/hooks`, 'https://[2606:4700:4700::1111]/hooks']) {
      const answer = await add(url);
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
    }
  });

  it('checks again at delivery: a host that now resolves to the loopback gets nothing, and is said refused, once, with the rule', async () => {
    const target = await listener();
    const warn = mock.method(log, 'warn', () => undefined);
    const refusedCount = async () => Number(/^pay_checkout_webhook_endpoints_refused_total\{rule="public_address"\} (\d+)$/m.exec(await (await fetch(`${gw.url}/metrics`)).text())?.[1] ?? 0);
    try {
      const before = await refusedCount();
      const endpoint_id = await paidLinkFor(`https://rebind.shop.test:${target.port}/hooks`);
      // Two attempts (the first, then its retry): one line and one count for the endpoint, not one an attempt.
      await gw.deliverAll();
      gw.clock.advance(60_000);
      await gw.deliverAll();
      const deliveries = (await gw.client.getWebhookDeliveries(endpoint_id)).filter((d) => d.attempts > 0);
      assert.ok(deliveries.reduce((sum, d) => sum + d.attempts, 0) >= 2);
      // "unreachable" before: the endpoint may answer; the gateway's rule is what stops it.
      assert.deepEqual(new Set(deliveries.map((d) => d.last_error)), new Set(['refused_address']));
      assert.equal(target.connections(), 0, 'no connection to the loopback');
      const lines = warn.mock.calls.map((call) => call.arguments as unknown[]).filter(([fields]) => (fields as { endpoint_id?: string }).endpoint_id === endpoint_id);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      const [fields, message] = lines[0]! as [{ rule: string; reason: string }, string];
      assert.equal(fields.rule, 'public_address');
      assert.match(fields.reason, /must reach a public address.*rebind\.shop\.test resolves to 127\.0\.0\.1/);
      assert.match(message, new RegExp(`endpoint ${endpoint_id} is refused at delivery: its URL must reach a public address`));
      assert.equal((await refusedCount()) - before, 1);
    } finally {
      warn.mock.restore();
      await target.close();
    }
  });

  it('marks the endpoint refused where the merchant reads it, with the rule and why, until an attempt finds its URL allowed', async () => {
    const target = await listener();
    const warn = mock.method(log, 'warn', () => undefined);
    try {
      const endpoint_id = await paidLinkFor(`https://flap.shop.test:${target.port}/hooks`);
      const refusedOf = async () => (await gw.client.listWebhookEndpoints()).find((e) => e.endpoint_id === endpoint_id)!.refused;
      const attempt = async () => {
        assert.equal(await gw.gateway.webhookDispatcher.deliverDue(), 1, 'one attempt: the later event waits for the first');
        gw.clock.advance(60_000);
      };
      assert.equal(await refusedOf(), null, 'allowed when added');
      const first = gw.clock.now().toISOString();
      await attempt();
      const refused = await refusedOf();
      assert.equal(refused?.rule, 'public_address');
      assert.match(refused.reason, /^must reach a public address, not a private, loopback, link-local or reserved one \(flap\.shop\.test resolves to 127\.0\.0\.1\)$/);
      assert.equal(refused.since, first);
      await attempt();
      assert.deepEqual(await refusedOf(), refused, 'the same mark, from the first attempt that found it');
      // Public again: the attempt goes out (nothing answers in this closed network), and the mark goes.
      await attempt();
      assert.equal(await refusedOf(), null);
      assert.deepEqual(
        (await gw.client.getWebhookDeliveries(endpoint_id)).filter((d) => d.attempts > 0).map((d) => [d.attempts, d.last_error]),
        [[3, 'unreachable']],
      );
      assert.equal(target.connections(), 0, 'no connection to the loopback');
    } finally {
      warn.mock.restore();
      await target.close();
    }
  });

  it('connects to the addresses it checked, without asking DNS again', async () => {
    const target = await listener();
    try {
      const endpoint_id = await paidLinkFor(`https://flip.shop.test:${target.port}/hooks`);
      assert.equal(await gw.gateway.webhookDispatcher.deliverDue(), 1, 'one attempt: the later event waits for the first');
      assert.equal(dns.asked['flip.shop.test'], 2, 'one lookup when added, one for the delivery');
      assert.equal(target.connections(), 0, 'the third answer (loopback) was never asked for, nor connected to');
      const [first] = (await gw.client.getWebhookDeliveries(endpoint_id)).slice(-1);
      assert.equal(first!.last_error, 'unreachable', 'the public address does not answer in this closed network');
    } finally {
      await target.close();
    }
  });

  it('takes a delivery id in digits only', async () => {
    for (const id of ['%201', '1%20', '1e0', '0x1', '+1', '1.0', '-1']) {
      const answer = await send<Problem>(gw.url, 'POST', `/api/webhooks/deliveries/${id}/redeliver`, { headers: auth() });
      assert.equal(answer.status, 400, `${id}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body.detail!, /delivery_id/);
    }
    assert.equal((await send(gw.url, 'POST', '/api/webhooks/deliveries/1/redeliver', { headers: auth() })).status, 404);
  });
});

describe(`webhook endpoint URLs with SANDBOX_ALLOW_LOCAL_WEBHOOKS=1 (${storageName})`, () => {
  let port: number;
  const named = 'http://127.0.0.1:9/named-at-start';
  const gw = useTestGateway(async () => {
    port = await freePort();
    return {
      config: { allowLocalWebhooks: true, port, sandboxWebhookUrl: named },
      localWebhooks: 'sandbox',
      resolve: fakeDns({ 'internal.shop.test': ['10.1.2.3'] }).resolve,
    };
  });

  it("takes the loopback only for the sandbox's own receivers: the one named at start and the demo's", async () => {
    assert.deepEqual((await gw.client.listWebhookEndpoints()).map((e) => e.url), [named], 'SANDBOX_WEBHOOK_URL, added at start');
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      const url = `http://${host}:${port}/demo/webhook-receiver`;
      assert.equal((await gw.client.addWebhookEndpoint(url)).url, url);
    }
    assert.equal((await gw.client.addWebhookEndpoint(named)).url, named, 'the named one, through the API too');
  });

  it('refuses every other loopback URL added through the API, naming url, and the rest as ever', async () => {
    const refused = [
      `http://127.0.0.1:${port}/internal/admin?action=delete&id=1`,
      'http://127.0.0.1:5432/demo/webhook-receiver',
      `http://127.0.0.1:${port}/demo/webhook-receiver?x=1`,
      `https://127.0.0.1:${port}/demo/webhook-receiver`,
      'http://127.0.0.1:9/named-at-start/other',
      'http://127.0.0.1:9/hooks',
      'http://[::1]:9/hooks',
      'https://localhost/hooks',
      'http://10.0.0.1/hooks',
      'http://internal.shop.test/hooks',
      'https://internal.shop.test/hooks',
      'https://169.254.169.254/',
      'http://not-yet.invalid/hooks',
    ];
    for (const url of refused) {
      await assert.rejects(gw.client.addWebhookEndpoint(url), (error: { status: number; fieldErrors: { path: string }[] }) => {
        assert.equal(error.status, 422, url);
        assert.deepEqual(error.fieldErrors.map((e) => e.path), ['url']);
        return true;
      });
    }
    assert.equal((await gw.client.listWebhookEndpoints()).length, 5, 'nothing more stored');
  });
});

/** A TCP port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe(`an endpoint's deliveries of one payment link (${storageName})`, () => {
  const gw = useTestGateway({ config: { allowLocalWebhooks: true } });

  it('lists only that link’s deliveries with ?payment_link_ref, each naming its link, and names a bad parameter', async () => {
    const { endpoint_id } = await gw.client.addWebhookEndpoint('http://127.0.0.1:9/hooks');
    const refs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { payment_link_ref } = await gw.client.createPaymentLink(sampleLink());
      await gw.markPaid(payment_link_ref);
      refs.push(payment_link_ref);
    }
    const all = await gw.client.getWebhookDeliveries(endpoint_id);
    assert.deepEqual(new Set(all.map((d) => d.payment_link_ref)), new Set(refs));
    const first = await gw.client.getWebhookDeliveries(endpoint_id, { paymentLinkRef: refs[0] });
    assert.ok(first.length >= 2, 'payment.confirming and payment.paid');
    assert.deepEqual(first, all.filter((d) => d.payment_link_ref === refs[0]));
    assert.deepEqual(await gw.client.getWebhookDeliveries(endpoint_id, { paymentLinkRef: 'pl_nobody' }), []);
    const token = await accessToken(gw.url, gw.credentials);
    const bad = await send<Problem>(gw.url, 'GET', `/api/webhooks/endpoints/${endpoint_id}/deliveries?payment_link_ref=`, { headers: { Authorization: `Bearer ${token}` } });
    assert.deepEqual([bad.status, bad.body.errors], [422, [{ path: 'payment_link_ref', message: 'must not be empty' }]]);
  });
});
