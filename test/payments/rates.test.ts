// Rates from the market, through a real gateway: three public sources on loopback (Binance's ticker, CoinGecko's simple
// price, ExchangeRate-API's USD/VND) and a RATE_SOURCES file of rules through USD. A quote locks the rate its rule
// makes, to the last digit, and the merchant's payment resource records where it came from; when ETH's sources fail
// or go stale below its quorum, new ETH quotes get a 503 naming ETH and the checkout shows ETH unavailable, while an
// ETH quote locked before still pays and USDT goes on; a source that hangs never delays a request; /metrics shows
// each source's last success and age.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, beforeEach, describe, it } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { Problem } from '../../src/contract/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { BINANCE_TOO_MANY, binanceTicker, coingeckoSimplePrice, exchangeRateLatest, ratesFile, startMarketSources, type PriceSource } from '../helpers/price-sources.js';

describe(`rates from the market (${storageName})`, () => {
  let binance: PriceSource;
  let coingecko: PriceSource;
  let fx: PriceSource;
  let folder: string;
  /** When CoinGecko and ExchangeRate-API say their prices are from. */
  let geckoUpdated: Date;
  let fxUpdated: Date;

  const healthy = () => {
    binance.respond(binanceTicker({ ETHUSDT: '3456.78000000', BTCUSDT: '97123.45000000' }));
    coingecko.respond(coingeckoSimplePrice({ tether: { usd: '1.0002' }, ethereum: { usd: '3457.1' }, bitcoin: { usd: '97100' } }, () => geckoUpdated));
    fx.respond(exchangeRateLatest({ VND: '26345.5', EUR: '0.9412' }, () => fxUpdated));
  };

  const gw = useTestGateway(async () => {
    ({ binance, coingecko, fx } = await startMarketSources());
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-rates-'));
    const file = await ratesFile(folder, {
      sources: [
        { id: 'binance', kind: 'binance', url: binance.url, pairs: { 'ETH/USD': 'ETHUSDT', 'BTC/USD': 'BTCUSDT' }, poll_ms: 10_000, timeout_ms: 1_000, stale_after_ms: 60_000 },
        { id: 'coingecko', kind: 'coingecko', url: coingecko.url, pairs: { 'USDT/USD': 'tether.usd', 'ETH/USD': 'ethereum.usd', 'BTC/USD': 'bitcoin.usd' }, poll_ms: 30_000, timeout_ms: 1_000, stale_after_ms: 120_000 },
        // USDT held at its peg as a second opinion, beside CoinGecko's price.
        { id: 'peg', kind: 'fixed', pairs: { 'USDT/USD': '1' } },
        { id: 'er-api', kind: 'exchangerate-api', url: fx.url, pairs: { 'USD/VND': 'VND' }, poll_ms: 3_600_000, timeout_ms: 1_000, stale_after_ms: 129_600_000 },
      ],
      assets: { USDT: { via: 'USD' }, ETH: { via: 'USD' }, BTC: { via: 'USD' } },
      pairs: { 'ETH/USD': { quorum: 2, max_deviation_bps: 200 } },
    });
    return { config: { rates: loadConfig({ RATE_SOURCES: file }).rates } };
  });
  after(async () => {
    await Promise.all([binance.close(), coingecko.close(), fx.close()]);
    await rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Whole seconds, as their formats give them.
    geckoUpdated = new Date(Math.floor(gw.clock.now().getTime() / 1000) * 1000 - 20_000);
    fxUpdated = new Date(Math.floor(gw.clock.now().getTime() / 1000) * 1000 - 3_600_000);
    healthy();
    await gw.gateway.rateFeed.refresh();
  });

  const newLink = async () => checkoutApi(gw.url, (await gw.client.createPaymentLink(sampleLink())).payment_link_ref);
  const merchantPayment = async (ref: string, paymentId: string) =>
    (await gw.client.getPaymentLink(ref)).payments.find((p) => p.payment_id === paymentId)!;

  it('locks the rule’s rate to the last digit, and the merchant’s payment resource records the prices it came from', async () => {
    const order = sampleLink();
    const link = await gw.client.createPaymentLink(order);
    const { status, body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open('ETH', 'ETHEREUM');
    assert.equal(status, 201, JSON.stringify(payment));
    // ETH/USD: the median of 3456.78 and 3457.1 is 3456.94; USD/VND 26345.5; 3456.94 × 26345.5 = 91,074,812.77 VND per
    // ETH, less 0.5%: 90,619,438.70615.
    assert.equal(payment.rate, '90619438.70615');
    // 360,000 VND at that rate is 0.003972... ETH, rounded up to 6 places.
    assert.equal(payment.amount_crypto, '0.003973');
    const recorded = await merchantPayment(link.payment_link_ref, payment.payment_id);
    const now = gw.clock.now();
    assert.deepEqual(recorded.rate_provenance, {
      market_rate: '91074812.77',
      spread_bps: 50,
      made_at: now.toISOString(),
      legs: [
        {
          pair: 'ETH/USD',
          rate: '3456.94',
          quorum: 2,
          max_deviation_bps: 200,
          sources: [
            // Binance's ticker has no time of its own: as of its answer.
            { source: 'binance', value: '3456.78000000', at: now.toISOString(), used: true, left_out: null },
            { source: 'coingecko', value: '3457.1', at: geckoUpdated.toISOString(), used: true, left_out: null },
          ],
        },
        {
          pair: 'USD/VND',
          rate: '26345.5',
          quorum: 1,
          max_deviation_bps: 300,
          sources: [{ source: 'er-api', value: '26345.5', at: fxUpdated.toISOString(), used: true, left_out: null }],
        },
      ],
    });
    // The list of links reads it too (for a whole page at once).
    const [listed] = (await gw.client.listPaymentLinks({ merchant_order_id: order.merchant_order_id })).payment_links;
    assert.deepEqual(listed!.payments[0]!.rate_provenance, recorded.rate_provenance);
    // The customer's view carries the rate, not its provenance.
    assert.equal('rate_provenance' in (await checkoutApi(gw.url, link.payment_link_ref).payment(payment.payment_id)).body, false);
  });

  it('refuses new ETH quotes below the quorum with a 503 naming ETH, shows ETH unavailable, and a locked ETH quote still pays', async () => {
    const locked = await newLink();
    const { body: before } = await locked.open('ETH', 'ETHEREUM');
    assert.equal(before.status, 'awaiting_payment');

    // Binance is rate-limited; CoinGecko's prices grow older than its bound: ETH/USD has one fresh source of the two it needs.
    binance.respond(() => BINANCE_TOO_MANY);
    gw.clock.advance(101_000);
    await gw.gateway.rateFeed.refresh();

    const later = await newLink();
    const response = await fetch(`${gw.url}/api/checkout/${(await later.view()).body.payment_link_ref}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'ETH', network: 'ETHEREUM' }),
    });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    const problem = (await response.json()) as Problem;
    assert.match(problem.detail ?? '', /^ETH has no rate the gateway can guarantee right now \(ETH\/USD has 0 usable prices and needs 2 \(2 known: 2 stale\)\)/);
    assert.deepEqual(problem.errors, [{ path: 'asset', message: 'ETH has no rate right now' }]);

    const assets = (await later.view()).body.methods[0]!.assets;
    assert.deepEqual(
      assets.map((a) => [a.asset, a.network, a.available]),
      [
        ['USDT', 'TRON', true],
        ['USDT', 'ETHEREUM', true],
        ['ETH', 'ETHEREUM', false],
        ['BTC', 'BITCOIN', false],
      ].filter(([asset, network]) => assets.some((a) => a.asset === asset && a.network === network)),
    );
    assert.equal((await later.open('USDT', 'TRON')).status, 201, 'USDT goes on');

    // The quote locked before: reopening returns it unchanged, and paying it pays the link.
    const { status, body: again } = await locked.open('ETH', 'ETHEREUM');
    assert.equal(status, 200);
    assert.equal(again.payment_id, before.payment_id);
    assert.equal(again.rate, before.rate);
    await gw.gateway.wallet.transfer({ to: before.address, asset: 'ETH', network: 'ETHEREUM', amount: before.amount_crypto });
    await gw.gateway.sandboxControls.mine(before.confirmations_required, 'ETHEREUM');
    assert.equal((await locked.payment(before.payment_id)).body.status, 'paid');

    // Binance answers again: ETH is back.
    healthy();
    geckoUpdated = gw.clock.now();
    await gw.gateway.rateFeed.refresh();
    assert.equal((await later.open('ETH', 'ETHEREUM')).status, 201);
  });

  it('never delays a request for a source that hangs: the quote is made from the prices already in the book', async () => {
    binance.respond(() => 'hang');
    const asking = gw.gateway.rateFeed.refresh();
    while (binance.hanging === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const link = await newLink();
    const { status, body } = await link.open('ETH', 'ETHEREUM');
    // Answered while Binance still holds the gateway's request open.
    assert.equal(binance.hanging, 1);
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal((await link.view()).status, 200);
    // Collected garbage must not take the gateway's timeout with it (services/rates/rate-feed.ts).
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    await asking;
    assert.equal(gw.gateway.rateFeed.status().find((s) => s.source === 'binance')!.failures, 1, 'cut off by its timeout');
  });

  it("shows each source's last success and age on /metrics, and which assets have a rate", async () => {
    fx.respond(() => ({ status: 500, body: 'oops' }));
    gw.clock.advance(5_000);
    await gw.gateway.rateFeed.refresh();
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    const value = (name: string, labels: Record<string, string>) =>
      Number(families.get(name)?.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v))?.value ?? NaN);
    const now = gw.clock.now().getTime();
    assert.equal(value('pay_checkout_rate_source_last_success_timestamp_seconds', { source: 'binance' }), now / 1000);
    assert.equal(value('pay_checkout_rate_source_age_seconds', { source: 'binance' }), 0);
    assert.equal(value('pay_checkout_rate_source_age_seconds', { source: 'coingecko' }), (now - geckoUpdated.getTime()) / 1000);
    // ExchangeRate-API failed this time: its last success and its prices' age are from the round before.
    assert.equal(value('pay_checkout_rate_source_last_success_timestamp_seconds', { source: 'er-api' }), (now - 5_000) / 1000);
    assert.equal(value('pay_checkout_rate_source_age_seconds', { source: 'er-api' }), (now - fxUpdated.getTime()) / 1000);
    assert.equal(value('pay_checkout_rate_source_failures', { source: 'er-api' }), 1);
    for (const asset of ['USDT', 'ETH', 'BTC']) assert.equal(value('pay_checkout_rate_available', { asset }), 1, asset);
  });
});
