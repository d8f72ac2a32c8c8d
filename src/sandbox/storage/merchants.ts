// Every statement about merchants and their credentials. Secrets are kept hashed (the token endpoint compares) and
// sealed (HMAC needs the key itself); merchant keys hashed.
import { one, type Sql } from './database.js';

export interface MerchantRow {
  merchant_id: string;
  name: string;
  client_id: string;
  client_secret_hash: string;
  client_secret_sealed: string;
}

/** NOTIFY channel: a merchant's credentials changed, so every process drops what it cached of them. */
export const MERCHANTS_CHANNEL = 'pay_checkout_merchants';

const COLUMNS = 'merchant_id, name, client_id, client_secret_hash, client_secret_sealed';

export async function upsertMerchant(
  sql: Sql,
  merchant: { merchant_id: string; name: string; client_id: string; client_secret_hash: string; client_secret_sealed: string; svc_key_hash: string },
): Promise<MerchantRow> {
  const row = await one<MerchantRow>(
    sql,
    `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, client_secret_hash = EXCLUDED.client_secret_hash,
       client_secret_sealed = EXCLUDED.client_secret_sealed, svc_key_hash = EXCLUDED.svc_key_hash
     RETURNING ${COLUMNS}`,
    [merchant.merchant_id, merchant.name, merchant.client_id, merchant.client_secret_hash, merchant.client_secret_sealed, merchant.svc_key_hash],
  );
  await sql.query('SELECT pg_notify($1, $2)', [MERCHANTS_CHANNEL, row!.merchant_id]);
  return row!;
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
