// Each rate source against a loopback server answering in that source's documented format, and with its documented
// errors: the prices read at the digits written, the source's own time where its format has one, and an error that
// says what the source said (and when it asked to be asked again). A source that never answers is cut off by its
// timeout, and the feed's round ends without it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { ManualClock } from '../../src/sandbox/clock.js';
import { rateSource, RateSourceError, type RateSourceKind, type RateSourceSpec } from '../../src/sandbox/rates/sources.js';
import { RateBook } from '../../src/sandbox/services/rates/rate-book.js';
import { RateFeed, retryDelay } from '../../src/sandbox/services/rates/rate-feed.js';
import {
  BINANCE_INVALID_SYMBOL,
  BINANCE_TOO_MANY,
  binanceTicker,
  COINGECKO_RATE_LIMIT,
  coingeckoSimplePrice,
  ENDLESS_JSON,
  ER_API_RATE_LIMITED,
  ER_API_UNSUPPORTED,
  exchangeRateLatest,
  startPriceSource,
  type PriceSource,
} from '../helpers/price-sources.js';

const clock = new ManualClock(new Date('2026-11-26T12:00:00Z'));
const now = () => clock.now();
const servers: PriceSource[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function source(kind: RateSourceKind, path: string, pairs: Record<string, string>, responder: Parameters<typeof startPriceSource>[1], timeout_ms = 2_000) {
  const server = await startPriceSource(path, responder);
  servers.push(server);
  const spec: RateSourceSpec = { id: kind, kind, url: server.url, pairs, poll_ms: 30_000, timeout_ms, stale_after_ms: 120_000 };
  return { server, source: rateSource(spec), spec };
}

const ask = (s: { source: ReturnType<typeof rateSource> }) => s.source.fetch(AbortSignal.timeout(5_000), now);
async function failure(s: { source: ReturnType<typeof rateSource> }): Promise<RateSourceError> {
  try {
    await ask(s);
  } catch (error) {
    assert.ok(error instanceof RateSourceError, String(error));
    return error;
  }
  assert.fail('the source answered with prices');
}

describe('Binance: GET /api/v3/ticker/price', () => {
  it('reads the symbols asked as the pairs they stand for, at the digits written, as of the answer', async () => {
    const binance = await source('binance', '/api/v3/ticker/price?symbols=%5B%22ETHUSDT%22,%22BTCUSDT%22%5D', { 'ETH/USD': 'ETHUSDT', 'BTC/USD': 'BTCUSDT' }, binanceTicker({ ETHUSDT: '3456.78000000', BTCUSDT: '97123.45000000', BNBUSDT: '612.10000000' }));
    assert.deepEqual(await ask(binance), [
      { pair: 'ETH/USD', value: '3456.78000000', at: clock.now() },
      { pair: 'BTC/USD', value: '97123.45000000', at: clock.now() },
    ]);
  });

  it('reads the single-symbol form too', async () => {
    const binance = await source('binance', '/api/v3/ticker/price?symbol=ETHUSDT', { 'ETH/USD': 'ETHUSDT' }, binanceTicker({ ETHUSDT: '3456.78000000' }));
    assert.deepEqual(await ask(binance), [{ pair: 'ETH/USD', value: '3456.78000000', at: clock.now() }]);
  });

  it("says what Binance said: an invalid symbol's code and message, 429's Retry-After, a symbol missing from the answer", async () => {
    const invalid = await source('binance', '/api/v3/ticker/price?symbol=ETHUSD', { 'ETH/USD': 'ETHUSD' }, () => BINANCE_INVALID_SYMBOL);
    assert.equal((await failure(invalid)).message, 'HTTP 400: -1121 Invalid symbol.');
    const limited = await source('binance', '/api/v3/ticker/price', { 'ETH/USD': 'ETHUSDT' }, () => BINANCE_TOO_MANY);
    const error = await failure(limited);
    assert.match(error.message, /^HTTP 429: -1003 Too many requests/);
    assert.equal(error.retryAfterMs, 7_000);
    const missing = await source('binance', '/api/v3/ticker/price', { 'ETH/USD': 'ETHUSDT' }, binanceTicker({ BTCUSDT: '97123.45' }));
    assert.equal((await failure(missing)).message, 'the answer has no ETHUSDT (for ETH/USD)');
    const zero = await source('binance', '/api/v3/ticker/price', { 'ETH/USD': 'ETHUSDT' }, binanceTicker({ ETHUSDT: '0.00000000' }));
    assert.match((await failure(zero)).message, /ETHUSDT is not a positive price/);
  });
});

describe('CoinGecko: GET /api/v3/simple/price', () => {
  const updated = new Date('2026-11-26T11:59:12Z');

  it("reads JSON numbers at the digits written (no float noise), each at CoinGecko's last_updated_at", async () => {
    const gecko = await source(
      'coingecko',
      '/api/v3/simple/price?ids=tether,ethereum,shiba-inu&vs_currencies=usd,vnd&include_last_updated_at=true',
      { 'USDT/USD': 'tether.usd', 'ETH/USD': 'ethereum.usd', 'SHIB/USD': 'shiba-inu.usd', 'USDT/VND': 'tether.vnd' },
      coingeckoSimplePrice({ tether: { usd: '1.0002', vnd: '26351.37' }, ethereum: { usd: '3456.9' }, 'shiba-inu': { usd: '0.00001234' } }, () => updated),
    );
    assert.deepEqual(await ask(gecko), [
      { pair: 'USDT/USD', value: '1.0002', at: updated },
      { pair: 'ETH/USD', value: '3456.9', at: updated },
      { pair: 'SHIB/USD', value: '0.00001234', at: updated },
      { pair: 'USDT/VND', value: '26351.37', at: updated },
    ]);
    // More digits than a float holds are kept as written, not rounded to 17.
    const exact = await source('coingecko', '/api/v3/simple/price?ids=ethereum&vs_currencies=usd', { 'ETH/USD': 'ethereum.usd' }, coingeckoSimplePrice({ ethereum: { usd: '3456.123456789012345678' } }, () => updated));
    assert.equal((await ask(exact))[0]!.value, '3456.123456789012345678');
  });

  it("says what CoinGecko said: 429's status message; an unknown coin id (left out of the answer)", async () => {
    const limited = await source('coingecko', '/api/v3/simple/price?ids=ethereum&vs_currencies=usd', { 'ETH/USD': 'ethereum.usd' }, () => COINGECKO_RATE_LIMIT);
    assert.match((await failure(limited)).message, /^HTTP 429: 429 You've exceeded the Rate Limit/);
    const unknown = await source('coingecko', '/api/v3/simple/price?ids=etherium&vs_currencies=usd', { 'ETH/USD': 'etherium.usd' }, coingeckoSimplePrice({ ethereum: { usd: '3456.9' } }, () => updated));
    assert.equal((await failure(unknown)).message, 'the answer has no etherium.usd (for ETH/USD)');
  });
});

describe('ExchangeRate-API: GET /v6/latest/USD (open.er-api.com)', () => {
  const updated = new Date('2026-11-26T00:02:31Z');

  it('reads USD/VND from the rates, at time_last_update_unix', async () => {
    const fx = await source('exchangerate-api', '/v6/latest/USD', { 'USD/VND': 'VND' }, exchangeRateLatest({ VND: '26345.5', EUR: '0.9412' }, () => updated));
    assert.deepEqual(await ask(fx), [{ pair: 'USD/VND', value: '26345.5', at: updated }]);
  });

  it('says what it said: result "error" with its error-type, 429 rate-limited, an answer for another base', async () => {
    const spec = (url: string, pairs: Record<string, string> = { 'USD/VND': 'VND' }): RateSourceSpec => ({ id: 'fx', kind: 'exchangerate-api', url, pairs, poll_ms: 1, timeout_ms: 2_000, stale_after_ms: 1 });
    const unsupported = await startPriceSource('/v6/latest/XYZ', () => ER_API_UNSUPPORTED);
    const limited = await startPriceSource('/v6/latest/USD', () => ER_API_RATE_LIMITED);
    const errorIn200 = await startPriceSource('/v6/latest/USD', () => ({ body: '{"result":"error","error-type":"quota-reached"}' }));
    const latest = await startPriceSource('/v6/latest/USD', exchangeRateLatest({ VND: '26345.5' }, () => updated));
    servers.push(unsupported, limited, errorIn200, latest);
    assert.equal((await failure({ source: rateSource(spec(unsupported.url)) })).message, 'HTTP 404: unsupported-code');
    assert.equal((await failure({ source: rateSource(spec(limited.url)) })).message, 'HTTP 429: rate-limited');
    assert.equal((await failure({ source: rateSource(spec(errorIn200.url)) })).message, 'result "error": quota-reached');
    assert.equal((await failure({ source: rateSource(spec(latest.url, { 'EUR/VND': 'VND' })) })).message, "the answer is for base USD, not EUR/VND's");
  });
});

describe('an answer past a bound is a failed answer, naming the bound', () => {
  const geckoPath = '/api/v3/simple/price?ids=ethereum&vs_currencies=usd&include_last_updated_at=true';
  const gecko = (body: string | Uint8Array, headers: Record<string, string> = {}, status = 200) => source('coingecko', geckoPath, { 'ETH/USD': 'ethereum.usd' }, () => ({ status, headers, body }));
  const at = Math.floor(clock.now().getTime() / 1000);
  const answer = (usd: string, updated: string | number = at) => `{"ethereum":{"usd":${usd},"last_updated_at":${updated}}}`;
  async function refused(s: { source: ReturnType<typeof rateSource> }, bound: RateSourceError['bound'], message: RegExp) {
    const error = await failure(s);
    assert.equal(error.bound, bound, error.message);
    assert.match(error.message, message);
  }

  it('how it comes: a redirect (not followed), a content type but JSON, a charset but UTF-8, bytes that are not UTF-8', async () => {
    const elsewhere = await startPriceSource('/api/v3/simple/price', coingeckoSimplePrice({ ethereum: { usd: '0.000001' } }, now));
    servers.push(elsewhere);
    const moved = await gecko('', { location: elsewhere.url }, 302);
    await refused(moved, 'redirect', /^HTTP 302: a redirect to http:\/\/127\.0\.0\.1:\d+\/api\/v3\/simple\/price, which is not followed$/);
    assert.equal(elsewhere.requests, 0, 'the redirect was not followed');
    await refused(await gecko(answer('3456.9'), { 'content-type': 'text/html' }), 'content-type', /^the answer is text\/html, not application\/json$/);
    await refused(await gecko(answer('3456.9'), { 'content-type': 'application/json; charset=utf-16' }), 'encoding', /^the answer is in utf-16, not UTF-8$/);
    await refused(await gecko(Buffer.concat([Buffer.from('{"ethereum":{"usd":3456.9,"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')])), 'encoding', /^the answer is not UTF-8$/);
    // What the sources send: a charset of UTF-8 is taken.
    assert.equal((await ask(await gecko(answer('3456.9'), { 'content-type': 'application/json; charset=UTF-8' })))[0]!.value, '3456.9');
  });

  it('its numbers: an exponent, more digits than a price has (300,000 of them refused as text, at once), a sign, zero, NaN', async () => {
    await refused(await gecko(answer('1e308')), 'price', /^ethereum\.usd is not a plain decimal price of at most 15 digits and 18 places: 1e308$/);
    await refused(await gecko(answer('1.234e-05')), 'price', /: 1\.234e-05$/);
    await refused(await gecko(answer('1e-30')), 'price', /: 1e-30$/);
    await refused(await gecko(answer('1234567890123456')), 'price', /: 1234567890123456$/);
    await refused(await gecko(answer('-5')), 'price', /: -5$/);
    await refused(await gecko(answer('0.000')), 'price', /^ethereum\.usd is not a positive price: 0\.000$/);
    await refused(await gecko(answer('NaN')), 'json', /^the answer is not JSON within bounds: an unexpected "N" at character 19$/);
    const long = await source('coingecko', geckoPath, { 'ETH/USD': 'ethereum.usd' }, () => ({ body: answer('9'.repeat(300_000)) }), 2_000);
    // Over max_bytes before it is a number at all; and a long number under a larger cap is refused as text.
    await refused(long, 'size', /^the answer is more than 16384 bytes$/);
    const roomy = rateSource({ ...long.spec, max_bytes: 1_048_576 });
    const started = performance.now();
    await refused({ source: roomy }, 'json', /^the answer is not JSON within bounds: a number 300000 characters long \(at most 40\) at character 19$/);
    assert.ok(performance.now() - started < 500, `${Math.round(performance.now() - started)} ms`);
    await refused(await gecko('['.repeat(1_000) + ']'.repeat(1_000)), 'json', /nesting deeper than 16/);
  });

  it('its size: more than max_bytes is not read, the connection closed, whether declared or endless', async () => {
    const endless = await source('coingecko', geckoPath, { 'ETH/USD': 'ethereum.usd' }, () => ENDLESS_JSON);
    const closed = endless.server.closed();
    const started = performance.now();
    await refused(endless, 'size', /^the answer is more than 16384 bytes$/);
    await closed;
    assert.ok(performance.now() - started < 1_000, `${Math.round(performance.now() - started)} ms`);
    await refused(await gecko(' '.repeat(20_000) + answer('3456.9')), 'size', /more than 16384 bytes/);
    // Just under the cap is read.
    assert.equal((await ask(await gecko(' '.repeat(16_000) + answer('3456.9'))))[0]!.value, '3456.9');
  });

  it("its time: outside Date's range, or ahead of the clock by more than a minute, is refused; within the minute it is the arrival", async () => {
    await refused(await gecko(answer('3456.9', 9_000_000_000_000)), 'time', /^ethereum\.last_updated_at 9000000000000 is more than 60 s ahead of the gateway's clock$/);
    await refused(await gecko(answer('3456.9', 99_000_000_000_000)), 'time', /^ethereum\.last_updated_at is not a time in unix seconds: 99000000000000$/);
    await refused(await gecko(answer('3456.9', at + 3_600)), 'time', /is more than 60 s ahead/);
    await refused(await gecko(answer('3456.9', '-1')), 'time', /not a time in unix seconds: -1$/);
    await refused(await gecko(answer('3456.9', '"soon"')), 'time', /not a time in unix seconds: "soon"$/);
    assert.deepEqual((await ask(await gecko(answer('3456.9', at + 30))))[0]!.at, clock.now());
    const fx = await source('exchangerate-api', '/v6/latest/USD', { 'USD/VND': 'VND' }, () => ({ body: '{"result":"success","time_last_update_unix":9000000000000,"base_code":"USD","rates":{"VND":26345.5}}' }));
    assert.match((await failure(fx)).message, /^time_last_update_unix 9000000000000 is more than 60 s ahead/);
  });

  it('its pace: a body trickled past the timeout is cut off at it', async () => {
    const slow = await source('binance', '/api/v3/ticker/price?symbol=ETHUSDT', { 'ETH/USD': 'ETHUSDT' }, () => ({
      raw: (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const text = '{"symbol":"ETHUSDT","price":"3456.78"}';
        let i = 0;
        const timer = setInterval(() => (i < text.length ? response.write(text[i++]!) : response.end()), 50);
        response.on('close', () => clearInterval(timer));
      },
    }));
    const controller = new AbortController();
    // The deadline under test, not a wait: the trickle takes about 2 s, and the read must end when its signal aborts.
    const timer = setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const error = await slow.source.fetch(controller.signal, now).then(
      () => assert.fail('the trickle was read'),
      (e: unknown) => e as RateSourceError,
    );
    clearTimeout(timer);
    assert.equal(error.message, 'no answer in time');
    assert.equal(error.bound, 'time-limit');
    assert.ok(performance.now() - started < 1_000);
  });
});

describe('the feed', () => {
  it('cuts off a source that never answers at its timeout: the round ends, the others are in the book, the failure counted', async () => {
    const hanging = await source('binance', '/api/v3/ticker/price', { 'ETH/USD': 'ETHUSDT' }, () => 'hang', 300);
    const gecko = await source('coingecko', '/api/v3/simple/price?ids=ethereum&vs_currencies=usd', { 'ETH/USD': 'ethereum.usd' }, coingeckoSimplePrice({ ethereum: { usd: '3456.9' } }, now));
    const book = new RateBook({
      sources: [hanging.spec, { ...gecko.spec, id: 'coingecko' }],
      assets: { ETH: { legs: ['ETH/USD'], spread_bps: 0 } },
      pairs: { 'ETH/USD': { quorum: 1, max_deviation_bps: 300 } },
    });
    const feed = new RateFeed(book, clock, [hanging.source, rateSource({ ...gecko.spec, id: 'coingecko' })]);
    await feed.refresh();
    assert.equal(hanging.server.requests, 1, 'the hanging source was asked');
    // The request was given up: the gateway closed its connection (the server hears of it a moment later).
    while (hanging.server.hanging) await delay(10);
    const [binanceStatus, geckoStatus] = feed.status();
    assert.deepEqual(binanceStatus, { source: 'binance', failures: 1 });
    assert.equal(geckoStatus!.failures, 0);
    assert.equal(book.evaluate('ETH', now()).market_rate, '3456.9');
    await feed.stop();
  });

  it('backs off a failing source: 1 s, 2 s, 4 s … never past four polls, never before its Retry-After', () => {
    const middle = (failures: number, poll: number, retryAfter?: number) => {
      const samples = Array.from({ length: 50 }, () => retryDelay(failures, poll, retryAfter));
      return [Math.min(...samples), Math.max(...samples)];
    };
    const within = ([low, high]: number[], center: number) => assert.ok(low! >= center * 0.9 && high! <= center * 1.1, `${low}–${high} around ${center}`);
    within(middle(1, 30_000), 1_000);
    within(middle(2, 30_000), 2_000);
    within(middle(5, 30_000), 16_000);
    within(middle(12, 30_000), 120_000);
    assert.ok(middle(1, 30_000, 7_000)[0]! >= 7_000);
  });
});
