// Merchants and their credentials: client id and secret (token endpoint), merchant key (svc_key).
import type { MerchantCredentials } from '../config.js';
import { randomToken, sameSecret, sha256, type Sealer } from '../secrets.js';
import { one, type Database, type Sql } from '../storage/database.js';

export interface Merchant {
  merchant_id: string;
  name: string;
  client_id: string;
}

export class Merchants {
  constructor(
    private readonly db: Database,
    private readonly sealer: Sealer,
  ) {}

  /** Creates the merchant of these credentials, or brings its stored secrets up to date. */
  async upsert(credentials: MerchantCredentials): Promise<Merchant> {
    const row = await one<Merchant & Record<string, unknown>>(
      this.db,
      `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, client_secret_hash = EXCLUDED.client_secret_hash,
         client_secret_sealed = EXCLUDED.client_secret_sealed, svc_key_hash = EXCLUDED.svc_key_hash
       RETURNING merchant_id, name, client_id`,
      [
        randomToken('mch', 12),
        credentials.name,
        credentials.clientId,
        sha256(credentials.clientSecret),
        this.sealer.seal(credentials.clientSecret),
        sha256(credentials.merchantKey),
      ],
    );
    return row!;
  }

  /** The merchant whose client id and secret these are, or undefined. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<Merchant | undefined> {
    // PostgreSQL text cannot hold NUL, so no client id has one; asking would be an error, not a miss.
    if (clientId.includes('\0')) return undefined;
    const row = await one<Merchant & { client_secret_hash: string }>(
      this.db,
      'SELECT merchant_id, name, client_id, client_secret_hash FROM merchants WHERE client_id = $1',
      [clientId],
    );
    if (!row || !sameSecret(clientSecret, row.client_secret_hash)) return undefined;
    return { merchant_id: row.merchant_id, name: row.name, client_id: row.client_id };
  }

  /** The merchant of a merchant key, with the client secret that keys its signatures. */
  async byMerchantKey(merchantKey: string): Promise<(Merchant & { clientSecret: string }) | undefined> {
    const row = await one<Merchant & { client_secret_sealed: string }>(
      this.db,
      'SELECT merchant_id, name, client_id, client_secret_sealed FROM merchants WHERE svc_key_hash = $1',
      [sha256(merchantKey)],
    );
    if (!row) return undefined;
    return { merchant_id: row.merchant_id, name: row.name, client_id: row.client_id, clientSecret: this.sealer.open(row.client_secret_sealed) };
  }

  /** The client secret that keys a merchant's signatures; `sql` may be an open transaction. */
  async clientSecret(sql: Sql, merchantId: string): Promise<string> {
    const row = await one<{ client_secret_sealed: string }>(sql, 'SELECT client_secret_sealed FROM merchants WHERE merchant_id = $1', [merchantId]);
    if (!row) throw new Error(`no merchant ${merchantId}`);
    return this.sealer.open(row.client_secret_sealed);
  }
}
