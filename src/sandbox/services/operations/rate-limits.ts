// Rate limits (docs/security.md, "Limits"): fixed windows counted in the database, so that every gateway process on
// one PostgreSQL shares them (and PGlite's one process keeps them across a restart). One statement a counted request.
import type { Clock } from '../../clock.js';
import { tooMany } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { countHit, deleteEndedWindows, liveWindow } from '../../storage/rate-limits.js';

export interface Rate {
  /** Hits allowed in one window. */
  limit: number;
  windowSeconds: number;
  /** What the 429 says, before when to try again. */
  refusal: string;
}

/** Ended windows are swept once in this many counted hits. */
const SWEEP_EVERY = 1_000;
/** Keys refused until their window ends, remembered in this process (the oldest forgotten first past this many). */
const REFUSALS_KEPT = 10_000;

export class RateLimits {
  #counted = 0;
  /**
   * Keys over their limit, and when their window ends: a flood's later requests are refused here without a statement,
   * so refusing costs the database nothing (other processes learn it from the database on their own next hit).
   */
  readonly #refused = new Map<string, Date>();

  constructor(
    private readonly db: Sql,
    private readonly clock: Clock,
  ) {}

  /** Counts a hit of `key`; a 429 (the hit still counted) once the window holds more than `rate.limit`. */
  async take(key: string, rate: Rate): Promise<void> {
    const now = this.clock.now();
    this.#refuseKnown(key, now, rate);
    const window = await this.#hit(key, now, rate);
    if (window.hits > rate.limit) throw this.#refuse(key, window.ends_at, now, rate);
  }

  /** Counts a hit of `key` and refuses nothing: for work counted only once done, with `check` before it. */
  async count(key: string, rate: Pick<Rate, 'windowSeconds'>): Promise<void> {
    await this.#hit(key, this.clock.now(), rate);
  }

  /** A 429 if `key` has already had `rate.limit` hits in its window; counts nothing (see `take`). */
  async check(key: string, rate: Rate): Promise<void> {
    const now = this.clock.now();
    this.#refuseKnown(key, now, rate);
    const window = await liveWindow(this.db, key, now);
    if (window && window.hits >= rate.limit) throw this.#refuse(key, window.ends_at, now, rate);
  }

  async #hit(key: string, now: Date, rate: Pick<Rate, 'windowSeconds'>) {
    if (++this.#counted % SWEEP_EVERY === 0) await deleteEndedWindows(this.db, now);
    return countHit(this.db, key, now, new Date(now.getTime() + rate.windowSeconds * 1000));
  }

  #refuseKnown(key: string, now: Date, rate: Rate): void {
    const until = this.#refused.get(key);
    if (until === undefined) return;
    if (until > now) throw this.#refuse(key, until, now, rate);
    this.#refused.delete(key);
  }

  #refuse(key: string, endsAt: Date, now: Date, rate: Rate) {
    if (!this.#refused.has(key) && this.#refused.size >= REFUSALS_KEPT) this.#refused.delete(this.#refused.keys().next().value!);
    this.#refused.set(key, endsAt);
    const seconds = (endsAt.getTime() - now.getTime()) / 1000;
    return tooMany(`${rate.refusal} Try again in ${Math.max(1, Math.ceil(seconds))} s.`, seconds);
  }
}
