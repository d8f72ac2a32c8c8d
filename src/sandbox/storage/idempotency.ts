// Every statement about Idempotency-Keys: the first answer to a key, kept with a hash of the request it answered.
import { one, type Sql } from './database.js';

/** Two requests with one key at once: the second waits here, until the first commits or rolls back. */
export async function lockKey(sql: Sql, merchantId: string, key: string): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${merchantId}\n${key}`]);
}

export async function findAnswer<T>(sql: Sql, merchantId: string, key: string): Promise<{ request_hash: string; response: T } | undefined> {
  return one(sql, 'SELECT request_hash, response FROM idempotency_keys WHERE merchant_id = $1 AND idempotency_key = $2', [merchantId, key]);
}

/** Keeps the answer to a key; false when the key has one already (written meanwhile by a statement without the lock). */
export async function insertAnswer(sql: Sql, merchantId: string, key: string, requestHash: string, response: unknown): Promise<boolean> {
  const rows = await sql.query(
    'INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1',
    [merchantId, key, requestHash, JSON.stringify(response)],
  );
  return rows.length > 0;
}
