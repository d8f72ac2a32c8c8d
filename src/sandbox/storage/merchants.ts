// Every statement about merchants and their credentials. Secrets are kept hashed (the token endpoint compares) and
// sealed (HMAC needs the key itself); merchant keys hashed. A rolled secret's predecessor is kept the same way until
// its grace ends, and its hash after that, so that a server still sending it is told it was replaced rather than
// counted as guessing (services/merchant/client-sign-in.ts); `secret_generation` counts every change of the secret
// (tokens carry it: storage/tokens.ts).
import { one, type Sql } from './database.js';

export interface MerchantRow {
  merchant_id: string;
  name: string;
  client_id: string;
  client_secret_hash: string;
  client_secret_sealed: string;
  secret_generation: number;
  previous_secret_hash: string | null;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  /** When the operator disabled the merchant (disableMerchant); null while it is enabled. */
  disabled_at: Date | null;
}

/** NOTIFY channel: a merchant's credentials changed, so every process drops what it cached of them. */
export const MERCHANTS_CHANNEL = 'pay_checkout_merchants';

const COLUMNS =
  'merchant_id, name, client_id, client_secret_hash, client_secret_sealed, secret_generation, previous_secret_hash, previous_secret_sealed, previous_secret_expires_at, disabled_at';

const notify = (sql: Sql, merchantId: string) => sql.query('SELECT pg_notify($1, $2)', [MERCHANTS_CHANNEL, merchantId]);

export async function upsertMerchant(
  sql: Sql,
  merchant: { merchant_id: string; name: string; client_id: string; client_secret_hash: string; client_secret_sealed: string; svc_key_hash: string },
): Promise<MerchantRow> {
  const row = await one<MerchantRow>(
    sql,
    `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, client_secret_hash = EXCLUDED.client_secret_hash,
       client_secret_sealed = EXCLUDED.client_secret_sealed, svc_key_hash = EXCLUDED.svc_key_hash,
       -- Another secret (a restart with a new SANDBOX_CLIENT_SECRET) ends the old one and its tokens at once.
       secret_generation = merchants.secret_generation + (merchants.client_secret_hash <> EXCLUDED.client_secret_hash)::int,
       previous_secret_hash = CASE WHEN merchants.client_secret_hash = EXCLUDED.client_secret_hash THEN merchants.previous_secret_hash ELSE merchants.client_secret_hash END,
       previous_secret_sealed = CASE WHEN merchants.client_secret_hash = EXCLUDED.client_secret_hash THEN merchants.previous_secret_sealed END,
       previous_secret_expires_at = CASE WHEN merchants.client_secret_hash = EXCLUDED.client_secret_hash THEN merchants.previous_secret_expires_at END
     RETURNING ${COLUMNS}`,
    [merchant.merchant_id, merchant.name, merchant.client_id, merchant.client_secret_hash, merchant.client_secret_sealed, merchant.svc_key_hash],
  );
  await notify(sql, row!.merchant_id);
  return row!;
}

/**
 * Makes `secret` the merchant's client secret, a generation up. With `previousUntil`, the secret it replaces still
 * works until then (and its tokens, storage/tokens.ts); without, it ends now (only its hash is kept), and so does any
 * predecessor still in its grace. Tokens no secret can vouch for any more go at once.
 */
export async function rollSecret(
  sql: Sql,
  merchantId: string,
  secret: { hash: string; sealed: string },
  previousUntil: Date | null,
): Promise<MerchantRow | undefined> {
  const row = await one<MerchantRow>(
    sql,
    `UPDATE merchants SET
       previous_secret_hash = client_secret_hash,
       previous_secret_sealed = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE client_secret_sealed END,
       previous_secret_expires_at = $4::timestamptz,
       client_secret_hash = $2, client_secret_sealed = $3, secret_generation = secret_generation + 1
     WHERE merchant_id = $1
     RETURNING ${COLUMNS}`,
    [merchantId, secret.hash, secret.sealed, previousUntil],
  );
  if (!row) return undefined;
  const oldestLive = row.secret_generation - (previousUntil ? 1 : 0);
  await sql.query('DELETE FROM access_tokens WHERE merchant_id = $1 AND secret_generation < $2', [merchantId, oldestLive]);
  await notify(sql, merchantId);
  return row;
}

/**
 * Disables the merchant, once (a second call keeps the first instant): every process drops what it cached of the
 * merchant on the NOTIFY, so its tokens and the portal's sessions end at once there too (services/merchant/merchants.ts).
 */
export async function disableMerchant(sql: Sql, merchantId: string): Promise<MerchantRow | undefined> {
  const row = await one<MerchantRow>(
    sql,
    `UPDATE merchants SET disabled_at = coalesce(disabled_at, now()) WHERE merchant_id = $1 RETURNING ${COLUMNS}`,
    [merchantId],
  );
  if (row) await notify(sql, merchantId);
  return row;
}

export async function merchantByClientId(sql: Sql, clientId: string): Promise<MerchantRow | undefined> {
  return one<MerchantRow>(sql, `SELECT ${COLUMNS} FROM merchants WHERE client_id = $1`, [clientId]);
}

export async function merchantByKeyHash(sql: Sql, svcKeyHash: string): Promise<MerchantRow | undefined> {
  return one<MerchantRow>(sql, `SELECT ${COLUMNS} FROM merchants WHERE svc_key_hash = $1`, [svcKeyHash]);
}

export async function merchantById(sql: Sql, merchantId: string): Promise<MerchantRow | undefined> {
  return one<MerchantRow>(sql, `SELECT ${COLUMNS} FROM merchants WHERE merchant_id = $1`, [merchantId]);
}

/** Some merchants (every one without `merchantIds`), oldest first, with when each was added. */
export async function listMerchants(sql: Sql, merchantIds?: readonly string[]): Promise<(MerchantRow & { created_at: Date })[]> {
  return merchantIds
    ? sql.query(`SELECT ${COLUMNS}, created_at FROM merchants WHERE merchant_id = ANY($1::text[]) ORDER BY created_at, merchant_id`, [merchantIds])
    : sql.query(`SELECT ${COLUMNS}, created_at FROM merchants ORDER BY created_at, merchant_id`);
}

/** A merchant's account key in use for a family: its addresses derive from `account_xpub`. */
export interface AccountKeyRow {
  merchant_id: string;
  family: string;
  account_key: string;
  account_xpub: string;
}

/**
 * Makes the account the merchant's key in use for its family: the one it had there before stays on record (with its
 * index), out of use. False, and nothing changed, when the account is another merchant's.
 */
export async function useAccountKey(sql: Sql, key: AccountKeyRow, now: Date): Promise<boolean> {
  await sql.query('UPDATE merchant_account_keys SET in_use = false WHERE merchant_id = $1 AND family = $2 AND in_use AND account_key <> $3', [
    key.merchant_id,
    key.family,
    key.account_key,
  ]);
  const row = await one(
    sql,
    `INSERT INTO merchant_account_keys (merchant_id, family, account_key, account_xpub, in_use, created_at) VALUES ($1, $2, $3, $4, true, $5)
     ON CONFLICT (family, account_key) DO UPDATE SET in_use = true, account_xpub = EXCLUDED.account_xpub
       WHERE merchant_account_keys.merchant_id = EXCLUDED.merchant_id
     RETURNING 1`,
    [key.merchant_id, key.family, key.account_key, key.account_xpub, now],
  );
  if (!row) return false;
  await notify(sql, key.merchant_id);
  return true;
}

/** The account keys in use of some merchants (every merchant's without `merchantIds`). */
export async function accountKeysInUse(sql: Sql, merchantIds?: readonly string[]): Promise<AccountKeyRow[]> {
  return merchantIds
    ? sql.query('SELECT merchant_id, family, account_key, account_xpub FROM merchant_account_keys WHERE in_use AND merchant_id = ANY($1::text[]) ORDER BY family', [merchantIds])
    : sql.query('SELECT merchant_id, family, account_key, account_xpub FROM merchant_account_keys WHERE in_use ORDER BY merchant_id, family');
}

/**
 * The next address index of the merchant's account key in use for the family, taken (the row stays locked until the
 * transaction ends, so no other takes the same); undefined when it has none there.
 */
export async function takeAccountIndex(sql: Sql, merchantId: string, family: string): Promise<(AccountKeyRow & { index: number }) | undefined> {
  return one(
    sql,
    `UPDATE merchant_account_keys SET next_index = next_index + 1 WHERE merchant_id = $1 AND family = $2 AND in_use
     RETURNING merchant_id, family, account_key, account_xpub, next_index - 1 AS index`,
    [merchantId, family],
  );
}
