// Every statement about Idempotency-Keys: the first answer to a key, kept with a hash of the request it answered and
// when, written on its own or with the row it answers. A key written at or before `liveSince` has expired: it is
// found by no one, and the next request under it writes over it.
import { one, type Sql } from './database.js';
import { lockHashed } from './locks.js';

/** Two requests with one key at once: the second waits here, until the first commits or rolls back. */
export async function lockKey(sql: Sql, merchantId: string, key: string): Promise<void> {
  await lockHashed(sql, `${merchantId}\n${key}`);
}

export async function findAnswer<T>(sql: Sql, merchantId: string, key: string, liveSince: Date): Promise<{ request_hash: string; response: T } | undefined> {
  return one(sql, 'SELECT request_hash, response FROM idempotency_keys WHERE merchant_id = $1 AND idempotency_key = $2 AND created_at > $3', [
    merchantId,
    key,
    liveSince,
  ]);
}

/** Keeps the answer to a key (over an expired one); false when the key has a live one already (written meanwhile by a statement without the lock). */
export async function insertAnswer(sql: Sql, merchantId: string, answer: KeyedAnswer, liveSince: Date): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (merchant_id, idempotency_key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response = EXCLUDED.response, created_at = EXCLUDED.created_at
       WHERE idempotency_keys.created_at <= $6
     RETURNING 1`,
    [merchantId, ...answerValues(answer), liveSince],
  );
  return rows.length > 0;
}

/** Deletes at most `limit` expired keys, oldest first; how many it deleted. */
export async function deleteExpiredKeys(sql: Sql, liveSince: Date, limit: number): Promise<number> {
  const rows = await sql.query(
    `DELETE FROM idempotency_keys WHERE (merchant_id, idempotency_key) IN
       (SELECT merchant_id, idempotency_key FROM idempotency_keys WHERE created_at <= $1 ORDER BY created_at LIMIT $2)
     RETURNING 1`,
    [liveSince, limit],
  );
  return rows.length;
}

/** The answer an Idempotency-Key keeps, and when it was written. */
export interface KeyedAnswer {
  key: string;
  requestHash: string;
  response: object;
  at: Date;
}

export const answerValues = (answer: KeyedAnswer) => [answer.key, answer.requestHash, JSON.stringify(answer.response), answer.at];

/**
 * `insert` (an INSERT … SELECT … WHERE …, whose merchant is the parameter `merchant`) made to write a key's answer
 * (answerValues, from the parameter numbered `first`) in the same statement, unless the key has one, even an expired
 * one (that one is written over under the key's lock): the row and the answer exist together or not at all. It
 * returns a row when it inserted.
 */
export function withKeyedAnswer(insert: string, { merchant, first }: { merchant: string; first: number }): string {
  const [key, hash, response, at] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  return `WITH inserted AS (${insert}
      AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE merchant_id = ${merchant} AND idempotency_key = ${key})
      RETURNING merchant_id),
    answer AS (INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response, created_at)
      SELECT merchant_id, ${key}, ${hash}, ${response}::jsonb, ${at}::timestamptz FROM inserted)
    SELECT 1 FROM inserted`;
}
