// GET /metrics in the Prometheus text format, read back with a parser of that format: each series docs/operations.md
// describes is there, with the figures of what the test did (a request, a paid payment, an open stream, a queued webhook);
// and, with METRICS_TOKEN or METRICS_PORT, read by no one else.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { ConfigError, loadConfig } from '../../src/sandbox/config.js';
import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, startTestGateway, storageName } from '../helpers/gateway.js';

describe(`GET /metrics (${storageName})`, () => {
  const gw = useTestGateway();

  it('parses as Prometheus text and carries the HTTP, database, chain, outbox, stream and payment series', async () => {
    await gw.client.addWebhookEndpoint('http://127.0.0.1:9/hook');
    const paid = await gw.client.createPaymentLink(sampleLink());
    await gw.markPaid(paid.payment_link_ref);
    const open = await gw.client.createPaymentLink(sampleLink());
    await checkoutApi(gw.url, open.payment_link_ref).open('USDT', 'TRON');
    const events = followEvents(gw.url, open.payment_link_ref);
    await events.next((p) => p.status === 'awaiting_payment');

    const response = await fetch(`${gw.url}/metrics`, { headers: { 'X-Request-Id': 'scrape-1' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('Content-Type')!, /^text\/plain; version=0\.0\.4/);
    assert.equal(response.headers.get('X-Request-Id'), 'scrape-1');
    const text = await response.text();
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    const samples = (name: string) => {
      const family = families.get(name);
      assert.ok(family, `no ${name}`);
      return family.metrics;
    };
    const value = (name: string, labels: Record<string, string> = {}) =>
      Number(samples(name).find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v))?.value ?? NaN);

    // The parser folds a histogram's labelled series into one: their labels are read from the text itself.
    assert.equal(families.get('pay_checkout_http_request_duration_seconds')?.type, 'HISTOGRAM');
    assert.match(text, /^pay_checkout_http_request_duration_seconds_count\{method="POST",route="\/api\/checkout\/:ref\/payments",status="201"\} [1-9]/m);
    assert.equal(families.get('pay_checkout_db_duration_seconds')?.type, 'HISTOGRAM');
    assert.match(text, /^pay_checkout_db_duration_seconds_count\{kind="transaction"\} [1-9]/m);
    assert.match(text, /^pay_checkout_db_duration_seconds_count\{kind="statement"\} [1-9]/m);
    if (storageName === 'PostgreSQL') assert.ok(value('pay_checkout_db_pool_connections', { state: 'total' }) >= 1);
    for (const network of ['TRON', 'ETHEREUM', 'BITCOIN']) {
      assert.ok(value('pay_checkout_chain_height', { network }) >= 0, network);
      assert.equal(value('pay_checkout_chain_available', { network }), 1);
      assert.ok(value('pay_checkout_watcher_lag_seconds', { network }) >= 0);
      assert.ok(value('pay_checkout_watcher_last_round_timestamp_seconds', { network }) > 1.7e9);
    }
    assert.ok(value('pay_checkout_chain_height', { network: 'TRON' }) >= 1, 'the blocks mined to pay');
    assert.ok(value('pay_checkout_webhook_outbox_pending') >= 1, 'payment.paid queued for the endpoint');
    assert.ok(value('pay_checkout_webhook_outbox_oldest_seconds') >= 0);
    assert.equal(value('pay_checkout_event_streams_open'), 1);
    assert.equal(value('pay_checkout_payments', { status: 'paid' }), 1);
    assert.equal(value('pay_checkout_payments', { status: 'awaiting_payment' }), 1);
    assert.ok(value('process_resident_memory_bytes') > 0);
    events.close();
  });
});

describe(`GET /metrics kept from the public (${storageName})`, () => {
  const TOKEN = 'metrics-token-3f9a1c7e5b2d4f60';
  const payments = /^pay_checkout_payments\{/m;

  it('with METRICS_TOKEN, answers only a request bearing it: 401 otherwise, with what to send', async () => {
    const gw = await startTestGateway({ config: { metrics: { token: TOKEN } } });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
        const refused = await fetch(`${gw.url}/metrics`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
        assert.equal(refused.status, 401, authorization);
        assert.match(refused.headers.get('Content-Type') ?? '', /^application\/problem\+json/);
        assert.equal(refused.headers.get('WWW-Authenticate'), 'Bearer realm="metrics"');
        assert.doesNotMatch(await refused.text(), payments);
      }
      const read = await fetch(`${gw.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      assert.equal(read.status, 200);
      assert.match(await read.text(), /^pay_checkout_http_request_duration_seconds_count\{method="GET",route="\/metrics",status="401"\} 6$/m);
    } finally {
      await gw.close();
    }
  });

  it('with METRICS_PORT, serves /metrics only on a listener of its own, and the main port answers 404', async () => {
    const gw = await startTestGateway({ config: { metrics: { port: 0 } } });
    try {
      const main = await fetch(`${gw.url}/metrics`);
      assert.equal(main.status, 404);
      assert.match(main.headers.get('Content-Type') ?? '', /^application\/problem\+json/);
      assert.doesNotMatch(await main.text(), payments);
      assert.ok(gw.metricsUrl, 'the listener of /metrics');
      assert.notEqual(new URL(gw.metricsUrl).port, new URL(gw.url).port);
      const own = await fetch(gw.metricsUrl);
      assert.equal(own.status, 200);
      assert.match(own.headers.get('Content-Type')!, /^text\/plain; version=0\.0\.4/);
      assert.match(await own.text(), /^pay_checkout_http_request_duration_seconds_count\{method="GET",route="\/metrics",status="404"\} 1$/m);
      // Nothing else is served there: not the checkout, not the merchant API.
      assert.equal((await fetch(new URL('/healthz', gw.metricsUrl))).status, 404);
      assert.equal((await fetch(new URL('/api/checkout/pl_any', gw.metricsUrl))).status, 404);
    } finally {
      await gw.close();
    }
  });

  it('refuses a start with a METRICS_TOKEN or METRICS_PORT it cannot use, naming the variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        assert.ok(error instanceof ConfigError, String(error));
        return error.problems;
      }
    };
    assert.match(problems({ METRICS_TOKEN: 'short' }).join('\n'), /^METRICS_TOKEN must be at least 16 characters/);
    assert.match(problems({ METRICS_TOKEN: 'sixteen chars with spaces' }).join('\n'), /^METRICS_TOKEN must be/);
    assert.doesNotMatch(problems({ METRICS_TOKEN: 'short' }).join('\n'), /short/, 'a token is never echoed');
    assert.match(problems({ METRICS_PORT: 'nine' }).join('\n'), /^METRICS_PORT must be a whole number from 1 to 65535, got nine$/);
    assert.match(problems({ METRICS_PORT: '0' }).join('\n'), /^METRICS_PORT must be/);
    assert.match(problems({ PORT: '8080', METRICS_PORT: '8080' }).join('\n'), /^METRICS_PORT must differ from PORT \(both 8080\)/);
    assert.deepEqual(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics, { token: TOKEN, port: 9464 });
    assert.deepEqual(loadConfig({}).metrics, { token: undefined, port: undefined });
  });
});
