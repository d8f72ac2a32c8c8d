// Idempotency-Key on POSTs (docs/api.md, "Idempotency"): the same key with the same request, within the key's life,
// answers as the first did without doing it again; with another request, 422. Only successes are kept, so a failed
// request may be retried under its key. A key keeps what names its request's effect (an id, a few hundred bytes at
// most), never a whole answer: the caller reads the answer from it, first time and replay alike. The one place that
// decides it: a request with or without a key, and a creation that can do it all in one statement.
import { canonicalize } from '../../../merchant/jcs.js';
import type { Clock } from '../../clock.js';
import { invalid, malformed } from '../../errors.js';
import { sha256 } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { deleteExpiredKeys, findAnswer, insertAnswer, lockKey, type KeyedAnswer } from '../../storage/idempotency.js';

export interface IdempotencyScope {
  merchantId: string;
  /** The Idempotency-Key header, if the request had one. */
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/** A request's key and the hash of what it asked; undefined without a key. */
interface KeyedRequest {
  key: string;
  requestHash: string;
}

/**
 * What can do a request's whole work in one statement that also writes the key's answer (an order's first link):
 * `answer` is what it keeps; `run` does it (with the key's answer to write, when the request has a key) and says
 * whether it could. When it cannot (the order has links, or the key was used), the request takes the long way.
 */
export interface FirstTry<T> {
  answer: T;
  run(keyed: KeyedAnswer | undefined): Promise<boolean>;
}

/** Expired keys are deleted once in this many keyed requests, at most this many at a time, oldest first. */
const PURGE_EVERY = 100;
const PURGE_BATCH = 1_000;

/** Checks the Idempotency-Key header and hashes the request it came with. */
function keyedRequest(scope: Omit<IdempotencyScope, 'merchantId'>): KeyedRequest | undefined {
  const { key } = scope;
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw malformed('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return { key, requestHash: sha256(`${scope.method} ${scope.path}\n${canonicalize(scope.body) ?? ''}`) };
}

/** The key got its answer from a first try (FirstTry) while this request held the lock. */
class AnsweredMeanwhile extends Error {}

export class Idempotency {
  #keyed = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** How long a key answers as it first did (IDEMPOTENCY_KEY_TTL_SECONDS); after that it is new again. */
    private readonly ttlSeconds: number,
  ) {}

  /**
   * Runs `work` in a transaction, once per live key: a request whose key was answered gets what `work` returned then
   * (JSON, small: ids, not resources).
   */
  async run<T extends object>(scope: IdempotencyScope, work: (tx: Sql) => Promise<T>, first?: FirstTry<T>): Promise<{ value: T; replayed: boolean }> {
    const keyed = keyedRequest(scope);
    // Before the work, so that a purge that fails leaves nothing done: the request may be sent again as it is.
    if (keyed && ++this.#keyed % PURGE_EVERY === 0) await this.purge();
    if (first && (await first.run(keyed && { ...keyed, response: first.answer, at: this.clock.now() }))) return { value: first.answer, replayed: false };
    if (keyed === undefined) return { value: await this.db.transaction(work), replayed: false };
    return this.#underKey(scope, keyed, work);
  }

  async #underKey<T extends object>(scope: IdempotencyScope, keyed: KeyedRequest, work: (tx: Sql) => Promise<T>): Promise<{ value: T; replayed: boolean }> {
    const { key, requestHash } = keyed;
    try {
      return await this.db.transaction(async (tx) => {
        // Two requests with one key at once (in any process on one database): the second waits here, then replays the first.
        await lockKey(tx, scope.merchantId, key);
        const now = this.clock.now();
        const liveSince = this.#liveSince(now);
        const earlier = await findAnswer<T>(tx, scope.merchantId, key, liveSince);
        if (earlier) {
          if (earlier.request_hash !== requestHash) {
            throw invalid('This Idempotency-Key was used with a different request; use a new key for a new request.', [
              { path: 'Idempotency-Key', message: 'was used with a different request' },
            ]);
          }
          return { value: earlier.response, replayed: true };
        }
        const value = await work(tx);
        if (!(await insertAnswer(tx, scope.merchantId, { key, requestHash, response: value, at: now }, liveSince))) throw new AnsweredMeanwhile();
        return { value, replayed: false };
      });
    } catch (error) {
      // What this transaction did is rolled back; asked again, the key's answer is there to replay or refuse.
      if (error instanceof AnsweredMeanwhile) return this.#underKey(scope, keyed, work);
      throw error;
    }
  }

  /** Deletes expired keys, a batch at most; how many. The table holds about a day of keys, whatever their number. */
  purge(): Promise<number> {
    return deleteExpiredKeys(this.db, this.#liveSince(this.clock.now()), PURGE_BATCH);
  }

  #liveSince(now: Date): Date {
    return new Date(now.getTime() - this.ttlSeconds * 1000);
  }
}
