// A property: whatever the sources answer (any number of them, any prices, fresh or stale, near the others or far),
// a quote made from the rate book never undercharges the order by more than the tolerance at the rate the quote
// records, and the rate it records is the one its provenance gives when worked out again by hand. The quote is made
// as the checkout makes it (services/customer/customer-checkout.ts): the book's locked rate, then quoteAtomic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applySpread, quoteAtomic, quoteStep, vndForAtomic } from '../../src/codecs/amounts.js';
import { GatewayError } from '../../src/sandbox/errors.js';
import type { RateSettings } from '../../src/sandbox/rates/configuration.js';
import type { RateSourceSpec } from '../../src/sandbox/rates/sources.js';
import { RateBook } from '../../src/sandbox/services/rates/rate-book.js';

const TOLERANCE_BPS = 50;
const now = new Date('2026-11-26T12:00:00Z');

/** A positive decimal with up to 8 places, from a few millionths to tens of billions. */
const price = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: 0, max: 8 }))
  .map(([units, places]) => {
    const text = units.toString().padStart(places + 1, '0');
    return places ? `${text.slice(0, -places)}.${text.slice(-places)}` : text;
  });

const answer = fc.record({ value: price, secondsAgo: fc.integer({ min: 0, max: 400 }) });
const legAnswers = fc.record({
  answers: fc.array(answer, { minLength: 0, maxLength: 6 }),
  quorum: fc.integer({ min: 1, max: 4 }),
  max_deviation_bps: fc.integer({ min: 0, max: 10_000 }),
});
const asset = fc.constantFrom({ decimals: 6, quote_decimals: 2 }, { decimals: 18, quote_decimals: 6 }, { decimals: 8, quote_decimals: 8 });

type Leg = { answers: { value: string; secondsAgo: number }[]; quorum: number; max_deviation_bps: number };

/** A book of one asset over one leg (COIN/VND) or two (COIN/USD × USD/VND), each source answering one price. */
function bookOf(legs: Leg[], spreadBps: number): RateBook {
  const pairs = legs.length === 1 ? ['COIN/VND'] : ['COIN/USD', 'USD/VND'];
  const id = (i: number, j: number) => `s${i}-${j}`;
  const settings: RateSettings = {
    sources: legs.flatMap((l, i) =>
      l.answers.map((_, j): RateSourceSpec => ({ id: id(i, j), kind: 'binance', url: 'http://127.0.0.1:9/', pairs: { [pairs[i]!]: id(i, j) }, poll_ms: 1_000, timeout_ms: 100, stale_after_ms: 300_000 })),
    ),
    assets: { COIN: { legs: pairs, spread_bps: spreadBps } },
    pairs: Object.fromEntries(legs.map((l, i) => [pairs[i]!, { quorum: l.quorum, max_deviation_bps: l.max_deviation_bps }])),
  };
  const book = new RateBook(settings);
  legs.forEach((l, i) => l.answers.forEach((a, j) => book.record(id(i, j), [{ pair: pairs[i]!, value: a.value, at: new Date(now.getTime() - a.secondsAgo * 1000) }])));
  return book;
}

/** Exact rationals for the check, independent of the code under test: a decimal as [numerator, denominator]. */
const ratio = (text: string): [bigint, bigint] => {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(whole! + fraction), 10n ** BigInt(fraction.length)];
};

describe('a quote from any set of source answers', () => {
  it('never undercharges beyond the tolerance at the rate it records, and records a rate its provenance gives', () => {
    fc.assert(
      fc.property(fc.array(legAnswers, { minLength: 1, maxLength: 2 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 5_000_000_000 }), asset, (legs, spreadBps, amountVnd, info) => {
        const book = bookOf(legs, spreadBps);
        let locked;
        try {
          locked = book.lock('COIN', now);
        } catch (error) {
          assert.ok(error instanceof GatewayError && error.kind === 'unavailable');
          assert.deepEqual(book.unavailable(now), ['COIN']);
          // Refused only when a leg truly has fewer fresh prices within its bound than its quorum (or rounds to 0).
          return;
        }
        const { rate, provenance } = locked;
        const atomic = quoteAtomic(BigInt(amountVnd), rate, info.decimals, quoteStep(info.decimals, info.quote_decimals));
        // What the quoted coins are worth at the recorded rate covers the order, less at most the tolerance.
        const worth = vndForAtomic(atomic, rate, info.decimals);
        assert.ok(worth * 10_000n >= BigInt(amountVnd) * BigInt(10_000 - TOLERANCE_BPS), `${atomic} at ${rate} is worth ${worth} VND of ${amountVnd}`);
        // And at the market rate, more so.
        assert.ok(vndForAtomic(atomic, provenance.market_rate, info.decimals) >= worth);
        // The recorded rate is the recorded market rate less the spread.
        assert.equal(rate, applySpread(provenance.market_rate, spreadBps));
        assert.equal(provenance.spread_bps, spreadBps);
        // Each leg's rate lies within the prices it used, every price used is fresh and within its bound of the
        // median of the fresh ones, and no fewer than the quorum were used.
        let market: [bigint, bigint] = [1n, 1n];
        provenance.legs.forEach((l, i) => {
          const used = l.sources.filter((s) => s.used);
          assert.ok(used.length >= legs[i]!.quorum);
          const [r, rd] = ratio(l.rate);
          const values = used.map((s) => ratio(s.value));
          assert.ok(values.some(([v, vd]) => v * rd <= r * vd) && values.some(([v, vd]) => v * rd >= r * vd), `${l.rate} outside the prices used`);
          for (const s of l.sources) {
            const age = now.getTime() - Date.parse(s.at);
            assert.equal(s.left_out === 'stale', age > 300_000);
            assert.equal(s.used, s.left_out === null);
          }
          market = [market[0] * r, market[1] * rd];
        });
        // The market rate is the legs' product rounded down by less than a millionth of a VND.
        const [m, md] = ratio(provenance.market_rate);
        assert.ok(m * market[1] <= market[0] * md, 'not above the product');
        assert.ok((m * 1_000_000n + md) * market[1] > market[0] * md * 1_000_000n, 'within a millionth below it');
      }),
      { numRuns: 2_000 },
    );
  });
});
