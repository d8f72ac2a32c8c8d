// The rates a quote can be made at: the last prices each source gave (rate-feed.ts writes them here), and each asset's
// rule applied to them at the moment of the quote (docs/rates.md, "Guards"). For every leg of the rule (ETH/USD, then
// USD/VND): the sources whose price is fresh, their median, those further from it than the bound left out, then the
// median of the rest, if at least the quorum is left. The market rate is the product of the legs' medians, rounded down
// to 6 decimal places; the customer's rate is that less the spread. Exact decimal arithmetic throughout: no floats.
// Reading it never waits on a source, so a quote costs what it did with fixed rates.
import { applySpread, formatAtomic, parseDecimal } from '../../../codecs/amounts.js';
import type { AssetCode, RateProvenance } from '../../../contract/index.js';
import { unavailable } from '../../errors.js';
import type { Pair, Price, RateSourceSpec } from '../../rates/sources.js';
import type { AssetRule, PairGuards, RateSettings } from '../../rates/configuration.js';

/** Decimal places of a market rate: those of the customer's rate (codecs/amounts.ts, applySpread). */
const RATE_PLACES = 6;

/** A decimal as an integer over a power of ten. */
interface Decimal {
  units: bigint;
  places: number;
}

const decimal = (text: string): Decimal => {
  const places = text.split('.')[1]?.length ?? 0;
  return { units: parseDecimal(text, places), places };
};
const atPlaces = (d: Decimal, places: number): bigint => d.units * 10n ** BigInt(places - d.places);
const compare = (a: Decimal, b: Decimal): number => {
  const places = Math.max(a.places, b.places);
  const [x, y] = [atPlaces(a, places), atPlaces(b, places)];
  return x < y ? -1 : x > y ? 1 : 0;
};
const text = (d: Decimal): string => formatAtomic(d.units, d.places);

/** The median, exact: of an even count, the mean of the middle two (one more decimal place when it needs it). */
export function median(values: readonly string[]): string {
  const sorted = values.map(decimal).sort(compare);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2) return text(sorted[middle]!);
  const [a, b] = [sorted[middle - 1]!, sorted[middle]!];
  const places = Math.max(a.places, b.places);
  const sum = atPlaces(a, places) + atPlaces(b, places);
  return text(sum % 2n === 0n ? { units: sum / 2n, places } : { units: (sum * 10n) / 2n, places: places + 1 });
}

/** Whether `value` is further than `bps` basis points from `center`. */
export function deviates(value: string, center: string, bps: number): boolean {
  const [v, c] = [decimal(value), decimal(center)];
  const places = Math.max(v.places, c.places);
  const [x, y] = [atPlaces(v, places), atPlaces(c, places)];
  const distance = x > y ? x - y : y - x;
  return distance * 10_000n > BigInt(bps) * y;
}

/** The product of the legs' rates, rounded down to the rate's places (a lower rate asks for more crypto, never less). */
export function product(rates: readonly string[]): string {
  const whole = rates.map(decimal).reduce((a, b) => ({ units: a.units * b.units, places: a.places + b.places }));
  return text(whole.places <= RATE_PLACES ? whole : { units: whole.units / 10n ** BigInt(whole.places - RATE_PLACES), places: RATE_PLACES });
}

/** A source's price as a rule reads it. */
export interface Quoted extends Price {
  source: string;
  /** The source's staleness bound; null: never stale. */
  stale_after_ms: number | null;
}

type Leg = RateProvenance['legs'][number];
/** A leg applied: its rate, or (below its quorum) none and why. */
export type LegResult = Omit<Leg, 'rate'> & ({ rate: string; problem?: undefined } | { rate: null; problem: string });

/** A rule applied: the rate and where it came from, or why there is none. */
export type Evaluation = { asset: AssetCode; legs: LegResult[] } & ({ market_rate: string; rate: string; provenance: RateProvenance } | { market_rate: null; problem: string });

/** One leg of a rule: the fresh prices, the outliers left out, and the median of the rest if the quorum is met. */
export function evaluateLeg(pair: Pair, guards: PairGuards, prices: readonly Quoted[], now: Date): LegResult {
  const fresh = prices.filter((p) => p.stale_after_ms === null || now.getTime() - p.at.getTime() <= p.stale_after_ms);
  const center = fresh.length ? median(fresh.map((p) => p.value)) : undefined;
  const kept = fresh.filter((p) => center !== undefined && !deviates(p.value, center, guards.max_deviation_bps));
  const sources = prices.map((p) => ({
    source: p.source,
    value: p.value,
    at: p.at.toISOString(),
    used: kept.includes(p),
    left_out: !fresh.includes(p) ? ('stale' as const) : !kept.includes(p) ? ('outlier' as const) : null,
  }));
  const leg = { pair, quorum: guards.quorum, max_deviation_bps: guards.max_deviation_bps, sources };
  if (kept.length >= guards.quorum) return { ...leg, rate: median(kept.map((p) => p.value)) };
  const left = [prices.length - fresh.length && `${prices.length - fresh.length} stale`, fresh.length - kept.length && `${fresh.length - kept.length} too far from the median`].filter(Boolean);
  return { ...leg, rate: null, problem: `${pair} has ${kept.length} usable price${kept.length === 1 ? '' : 's'} and needs ${guards.quorum} (${prices.length} known${left.length ? `: ${left.join(', ')}` : ''})` };
}

/** An asset's rule applied to the prices at `now`. */
export function evaluateRule(asset: AssetCode, rule: AssetRule, guardsOf: (pair: Pair) => PairGuards, pricesOf: (pair: Pair) => Quoted[], now: Date): Evaluation {
  const legs = rule.legs.map((pair) => evaluateLeg(pair, guardsOf(pair), pricesOf(pair), now));
  const missing = legs.find((leg) => leg.rate === null);
  if (missing?.rate === null) return { asset, legs, market_rate: null, problem: missing.problem };
  const priced = legs.flatMap(({ problem: _problem, ...leg }) => (leg.rate === null ? [] : [{ ...leg, rate: leg.rate }]));
  const market_rate = product(priced.map((leg) => leg.rate));
  const rate = applySpread(market_rate, rule.spread_bps);
  // Checked after the spread: a market rate of 0.000001 less any spread rounds down to nothing a quote can use.
  if (/^0+(\.0+)?$/.test(rate)) return { asset, legs, market_rate: null, problem: `${asset}'s rate rounds to 0 VND` };
  return { asset, legs, market_rate, rate, provenance: { market_rate, spread_bps: rule.spread_bps, made_at: now.toISOString(), legs: priced } };
}

/** A rate a quote locks, and where it came from. */
export interface LockedRate {
  rate: string;
  provenance: RateProvenance;
}

export class RateBook {
  /** Each source's last prices, by pair. */
  readonly #prices = new Map<string, Map<Pair, Price>>();
  readonly #sources: Map<string, RateSourceSpec>;
  /**
   * The last answer of unavailable(), and the span of time it holds for: every checkout view asks, and the answer
   * changes only when a source answers (record) or a price it used goes stale.
   */
  #unavailable: { assets: readonly AssetCode[]; from: number; until: number } | undefined;

  constructor(private readonly settings: RateSettings) {
    this.#sources = new Map(settings.sources.map((s) => [s.id, s]));
  }

  get assets(): AssetCode[] {
    return Object.keys(this.settings.assets);
  }

  /** A source's answer replaces what it said before. */
  record(source: string, prices: readonly Price[]): void {
    this.#prices.set(source, new Map(prices.map((p) => [p.pair, p])));
    this.#unavailable = undefined;
  }

  /** A source's last prices. */
  pricesOf(source: string): Price[] {
    return [...(this.#prices.get(source)?.values() ?? [])];
  }

  evaluate(asset: AssetCode, now: Date): Evaluation {
    const rule = this.settings.assets[asset];
    if (!rule) return { asset, legs: [], market_rate: null, problem: `${asset} has no rate rule` };
    try {
      return evaluateRule(asset, rule, (pair) => this.settings.pairs[pair]!, (pair) => this.#quoted(pair), now);
    } catch (error) {
      // Whatever the book holds, a rule that cannot be applied is no rate (a 503), never a failed request or process.
      return { asset, legs: [], market_rate: null, problem: `${asset}'s rule could not be applied: ${(error as Error)?.message ?? String(error)}` };
    }
  }

  /** The rate a new quote in `asset` locks now; a 503 naming the asset when its rule cannot make one. */
  lock(asset: AssetCode, now: Date): LockedRate {
    const evaluation = this.evaluate(asset, now);
    if (evaluation.market_rate === null) {
      throw unavailable(`${asset} has no rate the gateway can guarantee right now (${evaluation.problem}), so no payment opens in it; choose another coin, or try again shortly.`, [
        { path: 'asset', message: `${asset} has no rate right now` },
      ]);
    }
    return { rate: evaluation.rate, provenance: evaluation.provenance };
  }

  /** The assets without a rate now: the checkout shows them unavailable. */
  unavailable(now: Date): readonly AssetCode[] {
    const t = now.getTime();
    const kept = this.#unavailable;
    if (kept && kept.from <= t && t <= kept.until) return kept.assets;
    const assets = Object.freeze(this.assets.filter((asset) => this.evaluate(asset, now).market_rate === null));
    this.#unavailable = { assets, from: t, until: this.#freshUntil(t) };
    return assets;
  }

  /** The last moment every price fresh at `t` is still fresh (evaluateLeg's rule); a stale one stays stale later on. */
  #freshUntil(t: number): number {
    let until = Infinity;
    for (const [id, prices] of this.#prices) {
      const staleAfter = this.#sources.get(id)?.stale_after_ms ?? null;
      if (staleAfter === null) continue;
      for (const price of prices.values()) {
        const end = price.at.getTime() + staleAfter;
        if (end >= t) until = Math.min(until, end);
      }
    }
    return until;
  }

  /** Every source's prices for a pair, in the order the sources are configured. */
  #quoted(pair: Pair): Quoted[] {
    const quoted: Quoted[] = [];
    for (const [id, spec] of this.#sources) {
      const price = this.#prices.get(id)?.get(pair);
      if (price) quoted.push({ ...price, source: id, stale_after_ms: spec.stale_after_ms });
    }
    return quoted;
  }
}
