// Every statement about Idempotency-Keys: the first answer to a key, kept with a hash of the request it answered,
// written on its own or with the row it answers.
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

/** The answer an Idempotency-Key keeps, written with the row it answers. */
export interface KeyedAnswer {
  key: string;
  requestHash: string;
  response: object;
}

export const answerValues = (answer: KeyedAnswer) => [answer.key, answer.requestHash, JSON.stringify(answer.response)];

/**
 * `insert` (an INSERT … SELECT … WHERE …, whose merchant is the parameter `merchant`) made to write a key's answer
 * (answerValues, from the parameter numbered `first`) in the same statement, unless the key has one: the row and the
 * answer exist together or not at all. It returns a row when it inserted.
 */
export function withKeyedAnswer(insert: string, { merchant, first }: { merchant: string; first: number }): string {
  const [key, hash, response] = [first, first + 1, first + 2].map((n) => `$${n}`);
  return `WITH inserted AS (${insert}
      AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE merchant_id = ${merchant} AND idempotency_key = ${key})
      RETURNING merchant_id),
    answer AS (INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response) SELECT merchant_id, ${key}, ${hash}, ${response}::jsonb FROM inserted)
    SELECT 1 FROM inserted`;
}
