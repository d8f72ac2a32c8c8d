// A gateway process whose CoinGecko and ExchangeRate-API feeds date their prices at 9,000,000,000,000 s (past the end
// of JavaScript's dates, year 275,760): each answer is a failed one, logged once, and the process goes on polling and
// answering; a restart while the feeds still say it starts. Before, the first such answer threw `RangeError: Invalid
// time value` out of the rules: on a poll the process died, and a start died with `cannot start: Invalid time value`.
// Store: any. Its gateway processes are given no DATABASE_URL: PGlite in either pass, so it runs in the PGlite pass only.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { binanceTicker, coingeckoSimplePrice, exchangeRateLatest, ratesFile, startMarketSources, type PriceSource, type Responder } from '../helpers/price-sources.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';

const FAR = 9_000_000_000_000;

describe('a gateway process whose sources date their prices outside any date', () => {
  let binance: PriceSource;
  let coingecko: PriceSource;
  let fx: PriceSource;
  let folder: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;

  const honest = () => {
    binance.respond(binanceTicker({ ETHUSDT: '3456.78000000', BTCUSDT: '97123.45000000' }));
    coingecko.respond(coingeckoSimplePrice({ tether: { usd: '1.0002' }, ethereum: { usd: '3457.1' }, bitcoin: { usd: '97100' } }, () => new Date()));
    fx.respond(exchangeRateLatest({ VND: '26345.5' }, () => new Date(Date.now() - 3_600_000)));
  };
  const far: Record<'coingecko' | 'fx', Responder> = {
    coingecko: () => ({ body: `{"tether":{"usd":1.0002,"last_updated_at":${FAR}},"ethereum":{"usd":3457.1,"last_updated_at":${FAR}},"bitcoin":{"usd":97100,"last_updated_at":${FAR}}}` }),
    fx: () => ({ body: `{"result":"success","time_last_update_unix":${FAR},"base_code":"USD","rates":{"USD":1,"VND":26345.5}}` }),
  };

  before(async () => {
    ({ binance, coingecko, fx } = await startMarketSources());
    honest();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-far-'));
    const file = await ratesFile(folder, {
      sources: [
        { id: 'binance', kind: 'binance', url: binance.url, pairs: { 'ETH/USD': 'ETHUSDT', 'BTC/USD': 'BTCUSDT' }, poll_ms: 1_000, timeout_ms: 1_000 },
        { id: 'coingecko', kind: 'coingecko', url: coingecko.url, pairs: { 'USDT/USD': 'tether.usd', 'ETH/USD': 'ethereum.usd', 'BTC/USD': 'bitcoin.usd' }, poll_ms: 1_000, timeout_ms: 1_000 },
        { id: 'er-api', kind: 'exchangerate-api', url: fx.url, pairs: { 'USD/VND': 'VND' }, poll_ms: 1_000, timeout_ms: 1_000, stale_after_ms: 129_600_000 },
      ],
      assets: { USDT: { via: 'USD' }, ETH: { via: 'USD' }, BTC: { via: 'USD' } },
    });
    env = { RATE_SOURCES: file, PGLITE_DIR: join(folder, 'data'), LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  });
  after(async () => {
    await gateway?.kill();
    await Promise.all([binance.close(), coingecko.close(), fx.close()]);
    await rm(folder, { recursive: true, force: true });
  });

  /** Resolves when `source` has been asked `total` times, or fails when the process exits first. */
  const askedOrExited = (source: PriceSource, total: number) =>
    Promise.race([
      source.asked(total),
      gateway!.exited.then(({ code, signal }) => assert.fail(`the gateway process exited (code ${code}, signal ${signal}) after:\n${gateway!.logs().slice(-2_000)}`)),
    ]);

  it('goes on polling and answering when the feeds turn to such times, and says so once a source', async () => {
    gateway = await startGatewayProcess(env, { captureLogs: true });
    coingecko.respond(far.coingecko);
    fx.respond(far.fx);
    // Each source asked twice after it turned (its retries, 1 s and 2 s on): the poll before left the process running.
    const [geckoSeen, fxSeen] = [coingecko.requests, fx.requests];
    await Promise.all([askedOrExited(coingecko, geckoSeen + 2), askedOrExited(fx, fxSeen + 2)]);
    assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
    // The rules are applied on /metrics too: ExchangeRate-API's last good price still stands.
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    assert.match(metrics, /pay_checkout_rate_available\{asset="ETH"\} 1/);
    const failures = gateway.logEntries().filter((l) => l.msg.startsWith('rates: the source did not answer with prices')) as unknown as { source: string; bound: string; error: string }[];
    assert.deepEqual(
      failures.map((l) => [l.source, l.bound]).sort(),
      [
        ['coingecko', 'time'],
        ['er-api', 'time'],
      ],
    );
    assert.match(failures.find((l) => l.source === 'er-api')!.error, /^time_last_update_unix 9000000000000 is more than 60 s ahead of the gateway's clock$/);
    assert.deepEqual((await gateway.stop()).code, 0);
  });

  it('starts while the feeds still say it', async () => {
    await gateway?.kill();
    gateway = await startGatewayProcess(env, { captureLogs: true });
    assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
    // USD/VND has no price at all now: no asset has a rate, and the process says so instead of dying.
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    assert.match(metrics, /pay_checkout_rate_available\{asset="ETH"\} 0/);
    assert.deepEqual((await gateway.stop()).code, 0);
  });
});
