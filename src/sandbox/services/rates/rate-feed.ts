// Asks each rate source on its own schedule and writes its prices to the rate book: one request at a time per source,
// each bounded by the source's timeout, a failure retried with backoff (1 s, 2 s, 4 s … up to four polls, or the
// source's Retry-After when longer). Requests never wait on this: they read the book. After every answer or failure,
// each asset's rule is applied, and what changed is logged once: a price left out as an outlier or held back as too far a
// move, an asset that has lost or found its quorum, a source that failed (or broke another bound) or answers again.
// Nothing a source says throws past its own round: the schedule goes on, and the start is never stopped by a source.
import type { AssetCode } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import { checkPrices, RateSourceError, type RateSource } from '../../rates/sources.js';
import type { RateBook } from './rate-book.js';

/** A source as the metrics show it. */
export interface SourceStatus {
  source: string;
  /** When it last answered with prices (this process's clock); undefined before. */
  last_success_at?: Date;
  /** The source's own time of the oldest price it gave last; undefined before. */
  oldest_price_at?: Date;
  failures: number;
}

const FIRST_RETRY_MS = 1_000;

/** The wait before the next request after `failures` failures in a row: doubling from a second, at most four polls. */
export function retryDelay(failures: number, pollMs: number, retryAfterMs = 0): number {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), 4 * pollMs);
  // A little jitter, so that several processes do not ask in step.
  return Math.max(retryAfterMs, Math.round(backoff * (0.9 + Math.random() * 0.2)));
}

export class RateFeed {
  /** `error` is what was last logged of a failure: the bound it broke, else its message. */
  readonly #status = new Map<string, SourceStatus & { error?: string; retryAfterMs?: number }>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #stop = new AbortController();
  /** What was last logged: the outliers (by source, pair, time and value) and the assets without a rate. */
  readonly #outliersLogged = new Set<string>();
  /** The source and pair of each price held back now (logged when the holding began). */
  readonly #heldLogged = new Set<string>();
  #unavailableLogged = new Set<AssetCode>();

  constructor(
    private readonly book: RateBook,
    private readonly clock: Clock,
    private readonly sources: readonly RateSource[],
  ) {
    for (const source of sources) this.#status.set(source.spec.id, { source: source.spec.id, failures: 0 });
  }

  /**
   * Asks every source once (the fixed ones answer at once), then each again on its schedule. With `remote` false, only
   * the fixed ones: a test asks the others when it chooses (refresh).
   */
  async start({ remote = true } = {}): Promise<void> {
    if (!remote) return this.refresh(this.sources.filter((source) => source.spec.kind === 'fixed'));
    await this.refresh();
    for (const source of this.sources) if (source.spec.kind !== 'fixed') this.#schedule(source, this.#nextDelay(source));
  }

  /** Asks sources once, side by side; each answer or failure is in the book or the logs when this resolves. */
  async refresh(sources: readonly RateSource[] = this.sources): Promise<void> {
    await Promise.all(sources.map((source) => this.#ask(source)));
  }

  status(): SourceStatus[] {
    return [...this.#status.values()].map(({ error: _error, retryAfterMs: _retry, ...status }) => status);
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#inFlight]);
  }

  #schedule(source: RateSource, delay: number): void {
    if (this.#stop.signal.aborted) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      // #ask logs its own failures; this catch is for a bug, so that it never takes the schedule (or the process) along.
      void this.#ask(source)
        .catch((error: unknown) => log.error({ source: source.spec.id, err: error }, 'rates: a round failed unexpectedly'))
        .finally(() => this.#schedule(source, this.#nextDelay(source)));
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  #nextDelay(source: RateSource): number {
    const status = this.#status.get(source.spec.id)!;
    return status.failures ? retryDelay(status.failures, source.spec.poll_ms, status.retryAfterMs) : source.spec.poll_ms;
  }

  /** One request to a source, bounded by its timeout; what it answered goes to the book. */
  async #ask(source: RateSource): Promise<void> {
    const { id, timeout_ms } = source.spec;
    const status = this.#status.get(id)!;
    // A timer of its own, not AbortSignal.timeout(): a timeout signal that only AbortSignal.any() refers to can be
    // collected before it fires (Node 20), and a source that hung then held its request, and its next poll, for minutes.
    const timeout = new AbortController();
    const timer = source.spec.kind === 'fixed' ? undefined : setTimeout(() => timeout.abort(), timeout_ms);
    const signal = timer ? AbortSignal.any([this.#stop.signal, timeout.signal]) : this.#stop.signal;
    const asked = source.fetch(signal, () => this.clock.now());
    this.#inFlight.add(asked);
    try {
      const arrived = await asked;
      const prices = checkPrices(arrived, this.clock.now());
      const held = this.book.record(id, prices);
      this.#logHeld(id, prices, held);
      if (status.error) log.info({ source: id }, 'rates: the source answers again');
      const kept = this.book.pricesOf(id);
      Object.assign(status, { last_success_at: this.clock.now(), oldest_price_at: kept.length ? new Date(Math.min(...kept.map((p) => p.at.getTime()))) : undefined, failures: 0, error: undefined, retryAfterMs: undefined });
    } catch (error) {
      if (this.#stop.signal.aborted) return;
      this.book.dropHeld(id);
      const known = error instanceof RateSourceError;
      const message = known ? error.message : `unexpected: ${(error as Error)?.message ?? String(error)}`;
      // A bound broken is said once, however the hostile answers vary; other errors when their message changes.
      const said = (known && error.bound) || message;
      status.failures += 1;
      status.retryAfterMs = known ? error.retryAfterMs : undefined;
      if (status.error !== said) log.warn({ source: id, error: message, bound: known ? error.bound : undefined, failures: status.failures }, 'rates: the source did not answer with prices (said again only when the error changes)');
      status.error = said;
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(asked);
    }
    try {
      this.#review();
    } catch (error) {
      log.error({ err: error }, 'rates: the rules could not be reviewed');
    }
  }

  /** Logs a price held back once, when the holding begins; a pair taken again may be held (and logged) again later. */
  #logHeld(id: string, prices: readonly { pair: string; value: string }[], held: ReturnType<RateBook['record']>): void {
    for (const p of prices) {
      const key = `${id} ${p.pair}`;
      const hold = held.find((h) => h.pair === p.pair);
      if (!hold) this.#heldLogged.delete(key);
      else if (!this.#heldLogged.has(key)) {
        this.#heldLogged.add(key);
        log.warn({ source: id, ...hold }, "rates: a price too far from the source's last is held back until its next answer or another source agrees");
      }
    }
  }

  /** Applies every asset's rule now, and logs what changed since the last time. */
  #review(): void {
    const now = this.clock.now();
    const unavailable = new Set<AssetCode>();
    for (const asset of this.book.assets) {
      const evaluation = this.book.evaluate(asset, now);
      for (const leg of evaluation.legs) {
        for (const s of leg.sources.filter((s) => s.left_out === 'outlier')) {
          const key = `${s.source} ${leg.pair} ${s.at} ${s.value}`;
          if (this.#outliersLogged.has(key)) continue;
          this.#outliersLogged.add(key);
          const fresh = leg.sources.filter((other) => other.left_out !== 'stale').map((other) => other.value);
          log.warn({ asset, pair: leg.pair, source: s.source, value: s.value, at: s.at, fresh, max_deviation_bps: leg.max_deviation_bps }, 'rates: a price too far from the median is left out');
        }
      }
      if (evaluation.market_rate !== null) {
        if (this.#unavailableLogged.has(asset)) log.info({ asset, market_rate: evaluation.market_rate }, 'rates: the asset has a rate again');
        continue;
      }
      unavailable.add(asset);
      if (!this.#unavailableLogged.has(asset)) log.warn({ asset, problem: evaluation.problem }, 'rates: the asset has no rate: new quotes in it are refused');
    }
    this.#unavailableLogged = unavailable;
    // A bound on what is remembered: at worst an outlier is logged twice.
    if (this.#outliersLogged.size > 1_000) this.#outliersLogged.clear();
  }
}
