// GET /metrics in the Prometheus text format, read back with a parser of that format: each series docs/operations.md
// describes is there, with the figures of what the test did (a request, a paid payment, an open stream, a queued webhook).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';

describe(`GET /metrics (${storageName})`, () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

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
