// Every statement about access tokens: stored as hashes, expiring, and ending with the client secret that issued them
// (the merchant's `secret_generation` when issued: storage/merchants.ts).
import { one, type Sql } from './database.js';

/** Stores a token; the merchant's expired ones go at the same time, so the table stays small. */
export async function insertToken(sql: Sql, tokenHash: string, merchantId: string, secretGeneration: number, expiresAt: Date, now: Date): Promise<void> {
  await sql.query(
    `WITH expired AS (DELETE FROM access_tokens WHERE merchant_id = $2 AND expires_at <= $5)
     INSERT INTO access_tokens (token_hash, merchant_id, secret_generation, expires_at) VALUES ($1, $2, $3, $4)`,
    [tokenHash, merchantId, secretGeneration, expiresAt, now],
  );
}

/**
 * The merchant of a token, whether the operator disabled it, and when the token ends (its expiry, or the end of its
 * secret's grace); undefined for an unknown or expired token, or one whose secret has ended: a secret since replaced,
 * unless it is the one just before the current one and still in its grace.
 */
export async function liveToken(sql: Sql, tokenHash: string, now: Date): Promise<{ merchant_id: string; disabled: boolean; ends_at: Date } | undefined> {
  return one(
    sql,
    `SELECT t.merchant_id, m.disabled_at IS NOT NULL AS disabled,
       CASE WHEN t.secret_generation = m.secret_generation THEN t.expires_at ELSE least(t.expires_at, m.previous_secret_expires_at) END AS ends_at
     FROM access_tokens t JOIN merchants m ON m.merchant_id = t.merchant_id
     WHERE t.token_hash = $1 AND t.expires_at > $2
       AND (t.secret_generation = m.secret_generation
         OR (t.secret_generation = m.secret_generation - 1 AND m.previous_secret_expires_at > $2))`,
    [tokenHash, now],
  );
}
