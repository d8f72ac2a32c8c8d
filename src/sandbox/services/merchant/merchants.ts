// Merchants and their credentials: client id and secret (token endpoint), merchant key (svc_key). Every link creation
// and every signed redirect needs the merchant, so what was read is kept in memory, and dropped in every process when
// credentials change (NOTIFY).
import type { MerchantCredentials } from '../../config.js';
import { randomToken, sameSecret, sha256, type Sealer } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { merchantById, merchantByClientId, merchantByKeyHash, MERCHANTS_CHANNEL, upsertMerchant, type MerchantRow } from '../../storage/merchants.js';

export interface Merchant {
  merchant_id: string;
  name: string;
  client_id: string;
}

/** A merchant with the client secret that keys its signatures. */
export type SigningMerchant = Merchant & { clientSecret: string };

/** How long a cached merchant is trusted without a word from the database, should a notification be missed. */
const CACHE_MS = 60_000;

export class Merchants {
  readonly #byKeyHash = new Map<string, { merchant: SigningMerchant; until: number }>();
  readonly #secrets = new Map<string, { secret: string; until: number }>();
  #unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly sealer: Sealer,
  ) {}

  /** Starts hearing of credential changes, from this process and any other on the database. */
  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(MERCHANTS_CHANNEL, () => this.#forget());
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
  }

  /** Creates the merchant of these credentials, or brings its stored secrets up to date. */
  async upsert(credentials: MerchantCredentials): Promise<Merchant> {
    const row = await upsertMerchant(this.db, {
      merchant_id: randomToken('mch', 12),
      name: credentials.name,
      client_id: credentials.clientId,
      client_secret_hash: sha256(credentials.clientSecret),
      client_secret_sealed: this.sealer.seal(credentials.clientSecret),
      svc_key_hash: sha256(credentials.merchantKey),
    });
    this.#forget();
    return merchantOf(row);
  }

  /** The merchant whose client id and secret these are, or undefined. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<Merchant | undefined> {
    // PostgreSQL text cannot hold NUL, so no client id has one; asking would be an error, not a miss.
    if (clientId.includes('\0')) return undefined;
    const row = await merchantByClientId(this.db, clientId);
    if (!row || !sameSecret(clientSecret, row.client_secret_hash)) return undefined;
    return merchantOf(row);
  }

  /** The merchant of a merchant key, with the client secret that keys its signatures. */
  async byMerchantKey(merchantKey: string): Promise<SigningMerchant | undefined> {
    const keyHash = sha256(merchantKey);
    const cached = this.#byKeyHash.get(keyHash);
    if (cached && cached.until > Date.now()) return cached.merchant;
    const row = await merchantByKeyHash(this.db, keyHash);
    if (!row) return undefined;
    const merchant = { ...merchantOf(row), clientSecret: this.sealer.open(row.client_secret_sealed) };
    this.#byKeyHash.set(keyHash, { merchant, until: Date.now() + CACHE_MS });
    return merchant;
  }

  /** The client secret that keys a merchant's signatures; `sql` may be an open transaction. */
  async clientSecret(sql: Sql, merchantId: string): Promise<string> {
    const cached = this.#secrets.get(merchantId);
    if (cached && cached.until > Date.now()) return cached.secret;
    const row = await merchantById(sql, merchantId);
    if (!row) throw new Error(`no merchant ${merchantId}`);
    const secret = this.sealer.open(row.client_secret_sealed);
    this.#secrets.set(merchantId, { secret, until: Date.now() + CACHE_MS });
    return secret;
  }

  #forget(): void {
    this.#byKeyHash.clear();
    this.#secrets.clear();
  }
}

const merchantOf = (row: MerchantRow): Merchant => ({ merchant_id: row.merchant_id, name: row.name, client_id: row.client_id });
