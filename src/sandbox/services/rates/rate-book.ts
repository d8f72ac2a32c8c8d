// The rates a quote can be made at: the last prices each source gave (rate-feed.ts writes them here), and each asset's
// rule applied to them at the moment of the quote (docs/rates.md, "Guards"). For every leg of the rule (ETH/USD, then
// USD/VND): the sources whose price is fresh, their median, those further from it than the bound left out, then the
// median of the rest, if at least the quorum is left. The market rate is the product of the legs' medians, rounded down
// to 6 decimal places; the customer's rate is that less the spread. Exact decimal arithmetic throughout: no floats.
// Reading it never waits on a source, so a quote costs what it did with fixed rates. Two plausibility guards sit on top:
// a source's price that moves further than the pair's max_jump_bps from its last is held back (record) until its next
// answer or another source agrees, and an asset's market rate outside its rule's min and max is no rate at all.
import { applySpread, formatAtomic, parseDecimal } from '../../../codecs/amounts.js';
import type { AssetCode, RateProvenance } from '../../../contract/index.js';
import { unavailable } from '../../errors.js';
import type { Pair, Price, RateSourceSpec } from '../../rates/sources.js';
import { DEFAULT_MAX_JUMP_BPS, type AssetRule, type PairGuards, type RateSettings } from '../../rates/configuration.js';

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
  const below = rule.min !== undefined && compare(decimal(market_rate), decimal(rule.min)) < 0;
  if (below || (rule.max !== undefined && compare(decimal(market_rate), decimal(rule.max)) > 0)) {
    return { asset, legs, market_rate: null, problem: `${asset}'s market rate ${market_rate} VND is ${below ? `below its floor of ${rule.min}` : `above its ceiling of ${rule.max}`}` };
  }
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

/** A price record() held back: the source's last price stays in the book until its next answer or another agrees. */
export interface Held {
  pair: Pair;
  value: string;
  /** The source's last price, which it moved from. */
  last: string;
  max_jump_bps: number;
}

export class RateBook {
  /** Each source's last accepted prices, by pair. */
  readonly #prices = new Map<string, Map<Pair, Price>>();
  /** Each source's prices held back from its last answer, by pair: its next answer agreeing with one takes it. */
  readonly #held = new Map<string, Map<Pair, Price>>();
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

  /**
   * A source's answer replaces what it said before, but for a price further than its pair's max_jump_bps from the
   * source's last one: that one is held back, the last kept, unless the source's answer before said the same (within
   * the bound) or another source's price fresh at its time, taken or held, agrees with it (within the pair's
   * max_deviation_bps). A single wild answer then moves nothing; a move the market made is taken one poll later, or at
   * once when another source saw it too.
   */
  record(source: string, prices: readonly Price[]): Held[] {
    const last = this.#prices.get(source);
    const heldBefore = this.#held.get(source);
    const taken = new Map<Pair, Price>();
    const holding = new Map<Pair, Price>();
    const held: Held[] = [];
    for (const p of prices) {
      const before = last?.get(p.pair);
      const guards = this.settings.pairs[p.pair];
      const bound = guards?.max_jump_bps ?? DEFAULT_MAX_JUMP_BPS;
      const repeated = heldBefore?.get(p.pair);
      const plausible =
        !before ||
        !deviates(p.value, before.value, bound) ||
        (repeated !== undefined && !deviates(p.value, repeated.value, bound)) ||
        this.#othersAgree(source, p, guards?.max_deviation_bps ?? 0);
      if (plausible || !before) taken.set(p.pair, p);
      else {
        taken.set(p.pair, before);
        holding.set(p.pair, p);
        held.push({ pair: p.pair, value: p.value, last: before.value, max_jump_bps: bound });
      }
    }
    this.#prices.set(source, taken);
    this.#held.set(source, holding);
    this.#unavailable = undefined;
    return held;
  }

  /** Whether another source's price, taken or held back, fresh at `p`'s time, is within `bps` of it. */
  #othersAgree(source: string, p: Price, bps: number): boolean {
    for (const [id, spec] of this.#sources) {
      if (id === source) continue;
      for (const q of [this.#prices.get(id)?.get(p.pair), this.#held.get(id)?.get(p.pair)]) {
        if (q && (spec.stale_after_ms === null || p.at.getTime() - q.at.getTime() <= spec.stale_after_ms) && !deviates(p.value, q.value, bps)) return true;
      }
    }
    return false;
  }

  /** A source that failed: what it held back is forgotten, so only two answers in a row agreeing take a jump. */
  dropHeld(source: string): void {
    this.#held.delete(source);
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
