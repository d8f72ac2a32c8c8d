// Every statement about access tokens: stored as hashes, expiring.
import { one, type Sql } from './database.js';

/** Stores a token; the merchant's expired ones go at the same time, so the table stays small. */
export async function insertToken(sql: Sql, tokenHash: string, merchantId: string, expiresAt: Date, now: Date): Promise<void> {
  await sql.query(
    `WITH expired AS (DELETE FROM access_tokens WHERE merchant_id = $2 AND expires_at <= $4)
     INSERT INTO access_tokens (token_hash, merchant_id, expires_at) VALUES ($1, $2, $3)`,
    [tokenHash, merchantId, expiresAt, now],
  );
}

/** The merchant of a token and when the token expires; undefined for an unknown or expired token. */
export async function liveToken(sql: Sql, tokenHash: string, now: Date): Promise<{ merchant_id: string; expires_at: Date } | undefined> {
  return one(sql, 'SELECT merchant_id, expires_at FROM access_tokens WHERE token_hash = $1 AND expires_at > $2', [tokenHash, now]);
}
