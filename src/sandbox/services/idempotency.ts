// Idempotency-Key on POSTs: the same key with the same request returns the first response;
// with another request, 422. Only successes are kept, so a failed request may be retried under its key.
import { canonicalize } from '../../merchant/jcs.js';
import { invalid, malformed } from '../errors.js';
import { sha256 } from '../secrets.js';
import { one, type Database, type Sql } from '../storage/database.js';

export interface IdempotencyScope {
  merchantId: string;
  /** The Idempotency-Key header, if the request had one. */
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

export async function idempotent<T>(
  db: Database,
  scope: IdempotencyScope,
  work: (tx: Sql) => Promise<T>,
): Promise<{ value: T; replayed: boolean }> {
  const { key } = scope;
  if (key === undefined) return { value: await db.transaction(work), replayed: false };
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw malformed('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  const requestHash = sha256(`${scope.method} ${scope.path}\n${canonicalize(scope.body) ?? ''}`);
  return db.transaction(async (tx) => {
    // Two requests with one key at once: the second waits here, then replays the first.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${scope.merchantId}\n${key}`]);
    const earlier = await one<{ request_hash: string; response: T }>(
      tx,
      'SELECT request_hash, response FROM idempotency_keys WHERE merchant_id = $1 AND idempotency_key = $2',
      [scope.merchantId, key],
    );
    if (earlier) {
      if (earlier.request_hash !== requestHash) {
        throw invalid('This Idempotency-Key was used with a different request; use a new key for a new request.', [
          { path: 'Idempotency-Key', message: 'was used with a different request' },
        ]);
      }
      return { value: earlier.response, replayed: true };
    }
    const value = await work(tx);
    await tx.query('INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response) VALUES ($1, $2, $3, $4)', [
      scope.merchantId,
      key,
      requestHash,
      JSON.stringify(value),
    ]);
    return { value, replayed: false };
  });
}
