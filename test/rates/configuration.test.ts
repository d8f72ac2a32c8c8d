// Where rates come from, as the start reads it: the sandbox's fixed rates by default (npm start unchanged), or a
// RATE_SOURCES file of sources and rules; every bad value refused in one line naming it.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/sandbox/config.js';
import { configRefusal } from '../helpers/config.js';

let folder: string;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pay-checkout-rates-'));
});
after(() => rm(folder, { recursive: true, force: true }));

/** A RATE_SOURCES file like docs/rates.md's, changed by `change`. */
async function file(change: (f: Record<string, unknown>) => void = () => undefined): Promise<string> {
  const rates: Record<string, unknown> = {
    sources: [
      { id: 'binance', kind: 'binance', url: 'https://api.binance.com/api/v3/ticker/price?symbols=%5B%22ETHUSDT%22,%22BTCUSDT%22%5D', pairs: { 'ETH/USD': 'ETHUSDT', 'BTC/USD': 'BTCUSDT' } },
      {
        id: 'coingecko',
        kind: 'coingecko',
        url: 'https://api.coingecko.com/api/v3/simple/price?ids=tether,ethereum,bitcoin&vs_currencies=usd&include_last_updated_at=true',
        pairs: { 'USDT/USD': 'tether.usd', 'ETH/USD': 'ethereum.usd', 'BTC/USD': 'bitcoin.usd' },
        poll_ms: 60_000,
      },
      { id: 'er-api', kind: 'exchangerate-api', url: 'https://open.er-api.com/v6/latest/USD', pairs: { 'USD/VND': 'VND' }, poll_ms: 3_600_000, stale_after_ms: 129_600_000 },
    ],
    assets: { USDT: { via: 'USD' }, ETH: { via: 'USD' }, BTC: { via: 'USD', spread_bps: 100 } },
    pairs: { 'ETH/USD': { quorum: 2 }, 'BTC/USD': { quorum: 2, max_deviation_bps: 150 } },
  };
  change(rates);
  const path = join(folder, `rates-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify(rates));
  return path;
}

describe('rate configuration', () => {
  it('defaults to the sandbox fixed rates, each asset its own pair, the spread SANDBOX_SPREAD_BPS', () => {
    const { rates } = loadConfig({ SANDBOX_RATE_ETH: '91000000.5', SANDBOX_SPREAD_BPS: '25' });
    assert.deepEqual(rates.sources, [
      { id: 'fixed', kind: 'fixed', pairs: { 'USDT/VND': '26350', 'ETH/VND': '91000000.5', 'BTC/VND': '2600000000' }, poll_ms: 0, timeout_ms: 0, stale_after_ms: null },
    ]);
    assert.deepEqual(rates.assets.ETH, { legs: ['ETH/VND'], spread_bps: 25 });
  });

  it('reads a RATE_SOURCES file: rules through USD, guards per pair over the defaults, staleness four polls unless set', async () => {
    const { rates } = loadConfig({ RATE_SOURCES: await file() });
    assert.deepEqual(rates.assets, {
      USDT: { legs: ['USDT/USD', 'USD/VND'], spread_bps: 50 },
      ETH: { legs: ['ETH/USD', 'USD/VND'], spread_bps: 50 },
      BTC: { legs: ['BTC/USD', 'USD/VND'], spread_bps: 100 },
    });
    assert.deepEqual(rates.pairs, {
      'USDT/USD': { quorum: 1, max_deviation_bps: 300, max_jump_bps: 2_000 },
      'USD/VND': { quorum: 1, max_deviation_bps: 300, max_jump_bps: 2_000 },
      'ETH/USD': { quorum: 2, max_deviation_bps: 300, max_jump_bps: 2_000 },
      'BTC/USD': { quorum: 2, max_deviation_bps: 150, max_jump_bps: 2_000 },
    });
    assert.deepEqual(
      rates.sources.map((s) => [s.id, s.poll_ms, s.timeout_ms, s.stale_after_ms]),
      [
        ['binance', 30_000, 5_000, 120_000],
        ['coingecko', 60_000, 5_000, 240_000],
        ['er-api', 3_600_000, 5_000, 129_600_000],
      ],
    );
  });

  it("reads the plausibility bounds: a pair's max_jump_bps over the file's, an asset's floor and ceiling, a source's max_bytes", async () => {
    const { rates } = loadConfig({
      RATE_SOURCES: await file((f) => {
        f.max_jump_bps = 1_000;
        (f.pairs as Record<string, unknown>)['ETH/USD'] = { quorum: 2, max_jump_bps: 500 };
        (f.assets as Record<string, unknown>).ETH = { via: 'USD', min: '20000000', max: '400000000.5' };
        (f.sources as Record<string, unknown>[])[2]!.max_bytes = 65_536;
      }),
    });
    assert.equal(rates.pairs['ETH/USD']!.max_jump_bps, 500);
    assert.equal(rates.pairs['USD/VND']!.max_jump_bps, 1_000);
    assert.deepEqual(rates.assets.ETH, { legs: ['ETH/USD', 'USD/VND'], spread_bps: 50, min: '20000000', max: '400000000.5' });
    assert.deepEqual(rates.assets.USDT, { legs: ['USDT/USD', 'USD/VND'], spread_bps: 50 });
    assert.deepEqual(
      rates.sources.map((s) => s.max_bytes),
      [16_384, 16_384, 65_536],
    );
  });

  it('refuses what cannot work, in one line naming the variable, the place in the file and the rule', async () => {
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ SANDBOX_RATE_USDT: 'abc' }, /^SANDBOX_RATE_USDT must be a positive decimal number of VND, got abc$/],
      [{ SANDBOX_RATE_BTC: '0.000' }, /^SANDBOX_RATE_BTC must be a positive decimal number of VND, got 0.000$/],
      [{ SANDBOX_RATE_ETH: '1e9' }, /^SANDBOX_RATE_ETH must be a positive decimal number of VND, got 1e9$/],
      [{ RATE_SOURCES: join(folder, 'missing.json') }, /^RATE_SOURCES \(.*missing\.json\) could not be read as JSON: ENOENT/],
      [{ RATE_SOURCES: await file((f) => delete (f.assets as Record<string, unknown>).BTC) }, /^RATE_SOURCES \(.*\): \[assets\] has no rule for BTC, which a network takes$/],
      [{ RATE_SOURCES: await file((f) => ((f.pairs as Record<string, unknown>)['USD/VND'] = { quorum: 2 })) }, /^RATE_SOURCES \(.*\): USDT's rule needs USD\/VND from 2 sources, and 1 gives it$/],
      [{ RATE_SOURCES: await file((f) => ((f.sources as Record<string, unknown>[])[0]!.url = 'ftp://example.com')) }, /^RATE_SOURCES \(.*\): \[sources\.0\.url\] must be an http\(s\) URL$/],
      [{ RATE_SOURCES: await file((f) => ((f.sources as Record<string, unknown>[])[0]!.kind = 'kraken')) }, /^RATE_SOURCES \(.*\): \[sources\.0\.kind\] must be one of fixed, binance, coingecko, exchangerate-api$/],
      [{ RATE_SOURCES: await file((f) => delete (f.sources as Record<string, unknown>[])[2]!.url) }, /^RATE_SOURCES \(.*\): \[sources\.2\]\.url is required for a exchangerate-api source$/],
      [{ RATE_SOURCES: await file((f) => ((f.sources as Record<string, unknown>[])[1]!.id = 'binance')) }, /^RATE_SOURCES \(.*\): \[sources\.1\]\.id binance is named twice$/],
      [{ RATE_SOURCES: await file((f) => (f.sources as unknown[]).push({ id: 'desk', kind: 'fixed', pairs: { 'USD/VND': 'abc' } })) }, /^RATE_SOURCES \(.*\): \[sources\.3\]\.pairs\.USD\/VND must be a positive decimal string for a fixed source, got abc$/],
      [{ RATE_SOURCES: await file((f) => ((f.sources as Record<string, unknown>[])[1]!.pairs = { 'ETH/USD': 'ethereum' })) }, /^RATE_SOURCES \(.*\): \[sources\.1\]\.pairs\.ETH\/USD must be a CoinGecko coin id and currency such as ethereum\.usd, got ethereum$/],
      [{ RATE_SOURCES: await file((f) => ((f.assets as Record<string, unknown>).ETH = { via: 'usd' })) }, /^RATE_SOURCES \(.*\): \[assets\.ETH\.via\] must be a currency code such as USD$/],
      [{ RATE_SOURCES: await file((f) => ((f.assets as Record<string, unknown>).ETH = { via: 'USD', min: '1e7' })) }, /^RATE_SOURCES \(.*\): \[assets\.ETH\.min\] must be a positive decimal string of VND such as "20000000"$/],
      [{ RATE_SOURCES: await file((f) => ((f.assets as Record<string, unknown>).ETH = { via: 'USD', min: '90000000', max: '80000000.5' })) }, /^RATE_SOURCES \(.*\): \[assets\.ETH\] min 90000000 is above max 80000000\.5$/],
      [{ RATE_SOURCES: await file((f) => ((f.sources as Record<string, unknown>[])[0]!.max_bytes = 100)) }, /^RATE_SOURCES \(.*\): \[sources\.0\.max_bytes\] must be at least 1024$/],
      [{ RATE_SOURCES: await file(), SANDBOX_RATE_USDT: '26000' }, /^SANDBOX_RATE_USDT is set, but so is RATE_SOURCES: give fixed rates as a "fixed" source in that file$/],
    ];
    for (const [env, expected] of cases) {
      const problems = configRefusal(env);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, expected);
    }
  });
});
