// The rules that make a VND rate from the sources' prices, to the last digit: the median (of an odd and an even
// count), the bridge through USD, a stale price left out, an outlier left out and logged, the quorum, and the
// provenance a quote records (what was used, and why the rest was not).
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import fc from 'fast-check';
import { ManualClock } from '../../src/sandbox/clock.js';
import { GatewayError } from '../../src/sandbox/errors.js';
import { log } from '../../src/sandbox/logging.js';
import type { RateSettings } from '../../src/sandbox/rates/configuration.js';
import { RateSourceError, type RateSource, type RateSourceSpec } from '../../src/sandbox/rates/sources.js';
import { deviates, median, product, RateBook } from '../../src/sandbox/services/rates/rate-book.js';
import { RateFeed } from '../../src/sandbox/services/rates/rate-feed.js';

const spec = (id: string, pairs: string[], stale_after_ms: number | null = 120_000): RateSourceSpec => ({
  id,
  kind: 'binance',
  url: 'http://127.0.0.1:9/',
  pairs: Object.fromEntries(pairs.map((p) => [p, p])),
  poll_ms: 30_000,
  timeout_ms: 1_000,
  stale_after_ms,
});

const settings: RateSettings = {
  sources: [spec('binance', ['ETH/USD']), spec('coingecko', ['ETH/USD', 'USDT/USD']), spec('kraken', ['ETH/USD', 'USDT/USD']), spec('er-api', ['USD/VND'], 172_800_000), spec('sbv', ['USD/VND'], 172_800_000)],
  assets: { ETH: { legs: ['ETH/USD', 'USD/VND'], spread_bps: 50 }, USDT: { legs: ['USDT/USD', 'USD/VND'], spread_bps: 50 } },
  pairs: {
    'ETH/USD': { quorum: 2, max_deviation_bps: 300 },
    'USDT/USD': { quorum: 1, max_deviation_bps: 100 },
    'USD/VND': { quorum: 1, max_deviation_bps: 200 },
  },
};

const start = new Date('2026-11-26T12:00:00Z');
const at = (secondsAgo: number) => new Date(start.getTime() - secondsAgo * 1000);

function bookWith(prices: Record<string, [pair: string, value: string, secondsAgo: number][]>): RateBook {
  const book = new RateBook(settings);
  for (const [source, list] of Object.entries(prices)) book.record(source, list.map(([pair, value, ago]) => ({ pair, value, at: at(ago) })));
  return book;
}

describe('decimal rules, exact', () => {
  it('the median of an odd count is the middle price; of an even count the mean of the middle two, one place finer when it needs one', () => {
    assert.equal(median(['3457.10', '3456.78', '3456.90']), '3456.9');
    assert.equal(median(['26350', '26345.5']), '26347.75');
    assert.equal(median(['1', '2']), '1.5');
    assert.equal(median(['0.000001', '0.000002', '0.000004', '9']), '0.000003');
    assert.equal(median(['99999999999999999999.99999999', '99999999999999999999.99999998']), '99999999999999999999.999999985');
  });

  it('the product of the legs is rounded down to 6 places; a deviation is measured against the median in basis points', () => {
    assert.equal(product(['3456.9', '26347.75']), '91081536.975');
    assert.equal(product(['1.0002', '26347.75']), '26353.01955');
    assert.equal(product(['0.00001234', '26347.75']), '0.325131');
    assert.equal(deviates('103', '100', 300), false);
    assert.equal(deviates('103.0001', '100', 300), true);
    assert.equal(deviates('97', '100', 300), false);
    assert.equal(deviates('96.9999', '100', 300), true);
  });
});

describe('an asset through USD', () => {
  const fresh = bookWith({
    binance: [['ETH/USD', '3456.78000000', 1]],
    coingecko: [['ETH/USD', '3456.9', 20], ['USDT/USD', '1.0002', 20]],
    kraken: [['ETH/USD', '3457.10', 3], ['USDT/USD', '1.0001', 3]],
    'er-api': [['USD/VND', '26345.5', 43_200]],
    sbv: [['USD/VND', '26350', 3_600]],
  });

  it('is the median of ETH/USD times the median of USD/VND, less the spread, to the last digit', () => {
    const evaluation = fresh.evaluate('ETH', start);
    assert.equal(evaluation.market_rate, '91081536.975');
    // 91,081,536.975 × (1 − 0.5%) = 90,626,129.290125
    assert.equal(fresh.lock('ETH', start).rate, '90626129.290125');
    // USDT/USD 1.00015 × 26,347.75 = 26,351.7021625, rounded down to 26,351.702162, less 0.5%.
    assert.equal(fresh.lock('USDT', start).rate, '26219.943651');
  });

  it('records what it used: every price with its source and time, the legs, the market rate and the spread', () => {
    assert.deepEqual(fresh.lock('ETH', start).provenance, {
      market_rate: '91081536.975',
      spread_bps: 50,
      made_at: start.toISOString(),
      legs: [
        {
          pair: 'ETH/USD',
          rate: '3456.9',
          quorum: 2,
          max_deviation_bps: 300,
          sources: [
            { source: 'binance', value: '3456.78000000', at: at(1).toISOString(), used: true, left_out: null },
            { source: 'coingecko', value: '3456.9', at: at(20).toISOString(), used: true, left_out: null },
            { source: 'kraken', value: '3457.10', at: at(3).toISOString(), used: true, left_out: null },
          ],
        },
        {
          pair: 'USD/VND',
          rate: '26347.75',
          quorum: 1,
          max_deviation_bps: 200,
          sources: [
            { source: 'er-api', value: '26345.5', at: at(43_200).toISOString(), used: true, left_out: null },
            { source: 'sbv', value: '26350', at: at(3_600).toISOString(), used: true, left_out: null },
          ],
        },
      ],
    });
  });
});

describe('the guards', () => {
  it('leave out a price older than its source allows: the median is of the fresh ones', () => {
    const book = bookWith({
      binance: [['ETH/USD', '3300', 121]],
      coingecko: [['ETH/USD', '3456.9', 20]],
      kraken: [['ETH/USD', '3457.10', 3]],
      sbv: [['USD/VND', '26350', 3_600]],
    });
    const { provenance } = book.lock('ETH', start);
    assert.equal(provenance.legs[0]!.rate, '3457');
    assert.deepEqual(
      provenance.legs[0]!.sources.map((s) => [s.source, s.used, s.left_out]),
      [['binance', false, 'stale'], ['coingecko', true, null], ['kraken', true, null]],
    );
    // 120 s old is still fresh.
    assert.equal(bookWith({ binance: [['ETH/USD', '3300', 120]], coingecko: [['ETH/USD', '3300', 20]], sbv: [['USD/VND', '26350', 1]] }).lock('ETH', start).provenance.legs[0]!.sources[0]!.used, true);
  });

  it('leave out a price further from the median than the bound, and the feed logs it once', async () => {
    const clock = new ManualClock(start);
    const answers: Record<string, [string, string][]> = {
      binance: [['ETH/USD', '3600']],
      coingecko: [['ETH/USD', '3456.9'], ['USDT/USD', '1']],
      kraken: [['ETH/USD', '3457.10'], ['USDT/USD', '1']],
      sbv: [['USD/VND', '26350']],
    };
    const sources: RateSource[] = settings.sources
      .filter((s) => answers[s.id])
      .map((s) => ({ spec: s, fetch: () => Promise.resolve(answers[s.id]!.map(([pair, value]) => ({ pair, value, at: clock.now() }))) }));
    const book = new RateBook(settings);
    const feed = new RateFeed(book, clock, sources);
    const warn = mock.method(log, 'warn', () => undefined);
    try {
      await feed.refresh();
      await feed.refresh();
    } finally {
      warn.mock.restore();
    }
    const outliers = warn.mock.calls.filter((c) => c.arguments[1] === 'rates: a price too far from the median is left out');
    // Every source asked twice, the rules applied after each answer: the same price from the same time is one line.
    assert.equal(outliers.length, 1);
    assert.deepEqual({ ...(outliers[0]!.arguments[0] as object), fresh: undefined }, {
      asset: 'ETH',
      pair: 'ETH/USD',
      source: 'binance',
      value: '3600',
      at: start.toISOString(),
      max_deviation_bps: 300,
      fresh: undefined,
    });
    const leg = book.lock('ETH', start).provenance.legs[0]!;
    assert.equal(leg.rate, '3457');
    assert.deepEqual(leg.sources[0], { source: 'binance', value: '3600', at: start.toISOString(), used: false, left_out: 'outlier' });
  });

  it('refuse a new quote below the quorum with a 503 naming the asset, and say which assets have no rate', () => {
    const book = bookWith({
      binance: [['ETH/USD', '3456.78', 500]],
      coingecko: [['ETH/USD', '3456.9', 20], ['USDT/USD', '1', 20]],
      sbv: [['USD/VND', '26350', 1]],
    });
    assert.throws(
      () => book.lock('ETH', start),
      (error: unknown) =>
        error instanceof GatewayError &&
        error.kind === 'unavailable' &&
        error.detail.startsWith('ETH has no rate the gateway can guarantee right now (ETH/USD has 1 usable price and needs 2 (2 known: 1 stale))') &&
        error.errors?.[0]?.path === 'asset',
    );
    assert.deepEqual(book.unavailable(start), ['ETH']);
    assert.equal(book.lock('USDT', start).rate, '26218.25');
  });

  it('refuse an asset whose rate, less the spread, rounds down to 0 VND', () => {
    const book = bookWith({ coingecko: [['USDT/USD', '0.000001', 1]], sbv: [['USD/VND', '1', 1]] });
    assert.throws(() => book.lock('USDT', start), (error: unknown) => error instanceof GatewayError && error.kind === 'unavailable' && /USDT's rate rounds to 0 VND/.test(error.detail));
    assert.ok(book.unavailable(start).includes('USDT'));
  });

  it('refuse every asset whose USD/VND leg has no fresh source', () => {
    const book = bookWith({ coingecko: [['ETH/USD', '3456.9', 1], ['USDT/USD', '1', 1]], kraken: [['ETH/USD', '3456.9', 1]], sbv: [['USD/VND', '26350', 172_801]] });
    assert.deepEqual(book.unavailable(start), ['ETH', 'USDT']);
  });
});

describe('the assets without a rate, as every checkout view asks for them', () => {
  // unavailable() keeps its answer until a source answers or a price it used goes stale: over any sequence of answers
  // and clock moves (forward and back), it answers what evaluating every rule afresh answers.
  it('are what a fresh evaluation gives after every answer and every clock move', () => {
    const sources = settings.sources.flatMap((s) => Object.keys(s.pairs).map((pair) => ({ source: s.id, pair })));
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('answer' as const),
        which: fc.integer({ min: 0, max: sources.length - 1 }),
        value: fc.constantFrom('3456.78', '3600', '1', '0.98', '26350', '0.000001'),
        secondsAgo: fc.integer({ min: -10, max: 172_900 }),
      }),
      fc.record({ kind: fc.constant('clock' as const), seconds: fc.oneof(fc.integer({ min: -200, max: 200 }), fc.integer({ min: 0, max: 200_000 })) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const book = new RateBook(settings);
        let now = start.getTime();
        for (const s of steps) {
          if (s.kind === 'answer') {
            const { source, pair } = sources[s.which]!;
            book.record(source, [...book.pricesOf(source).filter((p) => p.pair !== pair), { pair, value: s.value, at: new Date(now - s.secondsAgo * 1000) }]);
          } else now += s.seconds * 1000;
          const afresh = book.assets.filter((asset) => book.evaluate(asset, new Date(now)).market_rate === null);
          assert.deepEqual(book.unavailable(new Date(now)), afresh);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('plausibility', () => {
  const ethOnly = (max_jump_bps?: number): RateSettings => ({ ...settings, pairs: { ...settings.pairs, 'ETH/USD': { quorum: 1, max_deviation_bps: 300, max_jump_bps } } });
  const price = (value: string, secondsAgo = 0) => [{ pair: 'ETH/USD', value, at: at(secondsAgo) }];
  const value = (book: RateBook, source: string) => book.pricesOf(source).find((p) => p.pair === 'ETH/USD')?.value;

  it("holds back a move beyond max_jump_bps (20% unless set) from the source's last price until its next answer agrees", () => {
    const book = new RateBook(ethOnly());
    assert.deepEqual(book.record('binance', price('3456.78')), [], 'a first price has nothing to move from');
    assert.deepEqual(book.record('binance', price('4148.13')), [], '20% up is taken');
    assert.deepEqual(book.record('binance', price('3456.78')), [], 'and 16.7% down');
    assert.deepEqual(book.record('binance', price('0.000001')), [{ pair: 'ETH/USD', value: '0.000001', last: '3456.78', max_jump_bps: 2_000 }]);
    assert.equal(value(book, 'binance'), '3456.78', 'the last price stays');
    // A second wild answer that does not agree with the first is held too; one that does is taken.
    assert.equal(book.record('binance', price('1000000000')).length, 1);
    assert.equal(value(book, 'binance'), '3456.78');
    assert.deepEqual(book.record('binance', price('1100000000')), []);
    assert.equal(value(book, 'binance'), '1100000000');
    // A failed answer in between: the next one is compared with the last taken again.
    book.record('binance', price('3456.78'));
    assert.equal(value(book, 'binance'), '1100000000', 'held: a move down of 99.9997%');
    book.dropHeld('binance');
    assert.equal(book.record('binance', price('3456.78')).length, 1);
    assert.equal(book.record('binance', price('3456.9')).length, 0);
    assert.equal(value(book, 'binance'), '3456.9');
    // The bound is the pair's.
    const tight = new RateBook(ethOnly(100));
    tight.record('binance', price('3456.78'));
    assert.equal(tight.record('binance', price('3500')).length, 1);
  });

  it("takes a move at once when another source's price, fresh at its time, agrees within the pair's max_deviation_bps", () => {
    const book = new RateBook(ethOnly());
    book.record('binance', price('3456.78'));
    book.record('coingecko', price('3456.9'));
    // The market fell 30%: CoinGecko saw it first (held: Binance still says 3456.78), then Binance, which agrees with
    // CoinGecko's held price and is taken at once; CoinGecko's next answer is taken too.
    assert.equal(book.record('coingecko', price('2419.75')).length, 1);
    assert.equal(value(book, 'coingecko'), '3456.9');
    assert.deepEqual(book.record('binance', price('2420')), []);
    assert.deepEqual(book.record('coingecko', price('2419.8')), []);
    assert.deepEqual([value(book, 'binance'), value(book, 'coingecko')], ['2420', '2419.8']);
    // A price older than its source allows agrees with nothing.
    const stale = new RateBook(ethOnly());
    stale.record('binance', price('3456.78'));
    stale.record('kraken', price('2420', 121));
    assert.equal(stale.record('binance', price('2420')).length, 1);
  });

  it("refuses an asset whose market rate is outside its rule's floor or ceiling, naming it", () => {
    const bounded: RateSettings = { ...settings, assets: { ...settings.assets, ETH: { legs: ['ETH/USD', 'USD/VND'], spread_bps: 50, min: '50000000', max: '150000000' } } };
    const book = new RateBook(bounded);
    const answer = (eth: string, vnd = '26345.5') => {
      for (const s of ['binance', 'coingecko']) book.record(s, [{ pair: 'ETH/USD', value: eth, at: start }]);
      book.record('sbv', [{ pair: 'USD/VND', value: vnd, at: start }]);
    };
    answer('3456.78');
    assert.equal(book.evaluate('ETH', start).market_rate, '91070597.49');
    // Said by both (Binance's held, CoinGecko's taken as agreeing with it), then again: 1,000 USD × 26,345.5 is below
    // 50,000,000 VND.
    answer('1000');
    answer('1000');
    assert.equal(book.evaluate('ETH', start).market_rate, null);
    assert.throws(() => book.lock('ETH', start), (error: unknown) => error instanceof GatewayError && /\(ETH's market rate 26345500 VND is below its floor of 50000000\)/.test(error.detail));
    answer('6000');
    answer('6000');
    assert.match((book.evaluate('ETH', start) as { problem: string }).problem, /^ETH's market rate 158073000 VND is above its ceiling of 150000000$/);
    assert.ok(book.unavailable(start).includes('ETH'));
  });

  it('the feed logs a held-back price once while it is held, and a failure once per bound however the answers vary', async () => {
    const clock = new ManualClock(start);
    let next: () => Promise<{ pair: string; value: string; at: Date }[]> = () => Promise.resolve([]);
    const binance: RateSource = { spec: spec('binance', ['ETH/USD']), fetch: () => next() };
    const book = new RateBook(ethOnly());
    const feed = new RateFeed(book, clock, [binance]);
    const warn = mock.method(log, 'warn', () => undefined);
    const answers = ['3456.78', '9000', '9.5', '900000', '3457', '9000'];
    const failures = ['ETHUSDT is not a price: -5', 'ETHUSDT is not a price: -6'];
    try {
      for (const value of answers) {
        next = () => Promise.resolve([{ pair: 'ETH/USD', value, at: clock.now() }]);
        await feed.refresh();
      }
      for (const message of failures) {
        next = () => Promise.reject(new RateSourceError(message, { bound: 'price' }));
        await feed.refresh();
      }
    } finally {
      warn.mock.restore();
    }
    const said = (msg: string) => warn.mock.calls.filter((c) => c.arguments[1] === msg).map((c) => c.arguments[0] as Record<string, unknown>);
    // 9000, 9.5 and 900000 held in a row: one line; 3457 taken; 9000 held again: a second line.
    assert.deepEqual(
      said("rates: a price too far from the source's last is held back until its next answer or another source agrees").map((l) => l.value),
      ['9000', '9000'],
    );
    assert.deepEqual(
      said('rates: the source did not answer with prices (said again only when the error changes)').map((l) => l.error),
      ['ETHUSDT is not a price: -5'],
    );
  });
});

describe('what no rule can read', () => {
  it('a price no rule can read is no rate (never a throw), and the feed takes none from any kind of source', async () => {
    const book = new RateBook(settings);
    book.record('binance', [{ pair: 'ETH/USD', value: '3456.78', at: new Date(Number.NaN) }]);
    book.record('coingecko', [{ pair: 'ETH/USD', value: '3456.9', at: start }]);
    assert.match((book.evaluate('ETH', start) as { problem: string }).problem, /^ETH's rule could not be applied: Invalid time value$/);
    const clock = new ManualClock(start);
    const fresh = new RateBook(settings);
    const odd = (value: string, when: Date): RateSource => ({ spec: spec('binance', ['ETH/USD']), fetch: () => Promise.resolve([{ pair: 'ETH/USD', value, at: when }]) });
    const warn = mock.method(log, 'warn', () => undefined);
    try {
      for (const [value, when] of [['3456.78', new Date(Number.NaN)], ['3456.78', at(-3_600)], ['1e308', start], ['-5', start]] as const) {
        await new RateFeed(fresh, clock, [odd(value, when)]).refresh();
        assert.deepEqual(fresh.pricesOf('binance'), []);
      }
    } finally {
      warn.mock.restore();
    }
    const failures = warn.mock.calls.filter((c) => c.arguments[1] === 'rates: the source did not answer with prices (said again only when the error changes)');
    assert.deepEqual(
      failures.map((c) => (c.arguments[0] as { bound: string }).bound),
      ['time', 'time', 'price', 'price'],
    );
  });
});
