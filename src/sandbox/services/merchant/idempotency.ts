// Idempotency-Key on POSTs (docs/api.md, "Idempotency"): the same key with the same request returns the first
// response; with another request, 422. Only successes are kept, so a failed request may be retried under its key. The
// one place that decides it: a request with or without a key, and a creation that can do it all in one statement.
import { canonicalize } from '../../../merchant/jcs.js';
import { invalid, malformed } from '../../errors.js';
import { sha256 } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { findAnswer, insertAnswer, lockKey, type KeyedAnswer } from '../../storage/idempotency.js';

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
 * `answer` is what it answers; `run` does it (with the key's answer to write, when the request has a key) and says
 * whether it could. When it cannot (the order has links, or the key was used), the request takes the long way.
 */
export interface FirstTry<T> {
  answer: T;
  run(keyed: KeyedAnswer | undefined): Promise<boolean>;
}

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

/** Runs `work` in a transaction, once per key: a request whose key was answered gets that answer again. */
export async function idempotent<T>(db: Database, scope: IdempotencyScope, work: (tx: Sql) => Promise<T>, first?: FirstTry<T>): Promise<{ value: T; replayed: boolean }> {
  const keyed = keyedRequest(scope);
  if (first && (await first.run(keyed && { ...keyed, response: first.answer as object }))) return { value: first.answer, replayed: false };
  if (keyed === undefined) return { value: await db.transaction(work), replayed: false };
  return underKey(db, scope, keyed, work);
}

async function underKey<T>(db: Database, scope: IdempotencyScope, keyed: KeyedRequest, work: (tx: Sql) => Promise<T>): Promise<{ value: T; replayed: boolean }> {
  const { key, requestHash } = keyed;
  try {
    return await db.transaction(async (tx) => {
      // Two requests with one key at once: the second waits here, then replays the first.
      await lockKey(tx, scope.merchantId, key);
      const earlier = await findAnswer<T>(tx, scope.merchantId, key);
      if (earlier) {
        if (earlier.request_hash !== requestHash) {
          throw invalid('This Idempotency-Key was used with a different request; use a new key for a new request.', [
            { path: 'Idempotency-Key', message: 'was used with a different request' },
          ]);
        }
        return { value: earlier.response, replayed: true };
      }
      const value = await work(tx);
      if (!(await insertAnswer(tx, scope.merchantId, key, requestHash, value))) throw new AnsweredMeanwhile();
      return { value, replayed: false };
    });
  } catch (error) {
    // What this transaction did is rolled back; asked again, the key's answer is there to replay or refuse.
    if (error instanceof AnsweredMeanwhile) return underKey(db, scope, keyed, work);
    throw error;
  }
}
