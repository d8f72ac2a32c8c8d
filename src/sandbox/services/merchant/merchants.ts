// Merchants and their credentials: client id and secret (token endpoint), merchant key (svc_key). Every link creation
// and every signed redirect needs the merchant, so what was read is kept in memory, and dropped in every process when
// credentials change (NOTIFY). A secret can be rolled, the old one kept for a grace of at most 7 days (docs/api.md,
// "Roll the client secret"); tokens end with the secret that issued them (tokens.ts). A disabled merchant
// (storage/merchants.ts, disableMerchant) gets no token, and its key signs no link; its links open no payment
// (customer-checkout.ts asks `disabled`), while what reaches its addresses is still followed (docs/operations.md).
import type { ClientSecretRoll } from '../../../contract/index.js';
import type { Environment } from '../../../contract/rules.js';
import type { Clock } from '../../clock.js';
import type { MerchantCredentials } from '../../config.js';
import { notFound } from '../../errors.js';
import { randomToken, sameSecret, sha256, type Sealer } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { CredentialCache } from './credential-cache.js';
import { issueCredential } from './credentials.js';
import { disableMerchant, merchantById, merchantByClientId, merchantByKeyHash, MERCHANTS_CHANNEL, rollSecret, upsertMerchant, type MerchantRow } from '../../storage/merchants.js';

export interface Merchant {
  merchant_id: string;
  name: string;
  client_id: string;
  /** Disabled by the operator: its credentials, tokens and key are refused with MERCHANT_DISABLED. */
  disabled: boolean;
}

/** A merchant with the client secret that keys its signatures, and the one before it while its grace lasts. */
export type SigningMerchant = Merchant & { clientSecret: string; previousSecret?: { secret: string; expiresAt: Date } };

/** A merchant that gave a client secret: which generation of its secrets, and when that one ends (null: when replaced). */
export type AuthenticatedClient = Merchant & { secret_generation: number; secret_expires_at: Date | null };

/** How long a cached merchant is trusted without a word from the database, should a notification be missed. */
const CACHE_MS = 60_000;

export class Merchants {
  /** Every cache of credentials, this class's and others' (cache()): all are cleared when credentials change. */
  readonly #caches: CredentialCache<unknown>[] = [];
  readonly #byKeyHash = this.cache<SigningMerchant>(CACHE_MS);
  readonly #secrets = this.cache<string>(CACHE_MS);
  readonly #disabled = this.cache<boolean>(CACHE_MS);
  #unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    /** Names the secrets a roll issues (credentials.ts). */
    private readonly environment: Environment,
  ) {}

  /** Starts hearing of credential changes, from this process and any other on the database. */
  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(MERCHANTS_CHANNEL, () => this.#forget());
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
  }

  /** Creates the merchant of these credentials, or brings its stored secrets up to date; `sql` may be an open transaction. */
  async upsert(credentials: MerchantCredentials, sql: Sql = this.db): Promise<Merchant> {
    const row = await upsertMerchant(sql, {
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

  /**
   * The merchant whose client id and secret these are (its current secret, or the previous one in its grace), disabled
   * or not (the right secret only tells that it is);
   * `'replaced'` for the secret the last roll replaced, once it has ended; undefined for anything else.
   */
  async authenticateClient(clientId: string, clientSecret: string): Promise<AuthenticatedClient | 'replaced' | undefined> {
    // PostgreSQL text cannot hold NUL, so no client id has one; asking would be an error, not a miss.
    if (clientId.includes('\0')) return undefined;
    const row = await merchantByClientId(this.db, clientId);
    if (!row) return undefined;
    if (sameSecret(clientSecret, row.client_secret_hash)) return { ...merchantOf(row), secret_generation: row.secret_generation, secret_expires_at: null };
    const previous = graceOf(row, this.clock.now());
    if (previous && sameSecret(clientSecret, previous.hash)) {
      return { ...merchantOf(row), secret_generation: row.secret_generation - 1, secret_expires_at: previous.expiresAt };
    }
    if (row.previous_secret_hash && sameSecret(clientSecret, row.previous_secret_hash)) return 'replaced';
    return undefined;
  }

  /**
   * A new client secret for the merchant, answered this once. The old one (and its tokens) ends now, or after
   * `expiresInSeconds` of grace (0 to 7 days: ClientSecretRollRequest); any older one still in a grace ends now. Every
   * process hears of it (NOTIFY).
   */
  async rollSecret(merchantId: string, expiresInSeconds = 0): Promise<ClientSecretRoll> {
    const secret = issueCredential(this.environment, 'clientSecret');
    const until = expiresInSeconds ? new Date(this.clock.now().getTime() + expiresInSeconds * 1000) : null;
    const row = await this.db.transaction((tx) => rollSecret(tx, merchantId, { hash: sha256(secret), sealed: this.sealer.seal(secret) }, until));
    if (!row) throw notFound('There is no such merchant.');
    this.#forget();
    return { client_id: row.client_id, client_secret: secret, previous_secret_expires_at: until?.toISOString() ?? null };
  }

  /** The secrets a merchant's signed request may be signed with: its current one, and the previous one in its grace. */
  signingSecrets(merchant: SigningMerchant): string[] {
    const previous = merchant.previousSecret;
    return previous && previous.expiresAt > this.clock.now() ? [merchant.clientSecret, previous.secret] : [merchant.clientSecret];
  }

  /** The merchant of a merchant key, with the client secret that keys its signatures. */
  byMerchantKey(merchantKey: string): Promise<SigningMerchant | undefined> {
    const keyHash = sha256(merchantKey);
    return this.#byKeyHash.get(keyHash, async () => {
      const row = await merchantByKeyHash(this.db, keyHash);
      if (!row) return undefined;
      const previous = graceOf(row, this.clock.now());
      return {
        ...merchantOf(row),
        clientSecret: this.sealer.open(row.client_secret_sealed),
        ...(previous && { previousSecret: { secret: this.sealer.open(previous.sealed), expiresAt: previous.expiresAt } }),
      };
    });
  }

  /**
   * Disables the merchant in every process at once (storage/merchants.ts, disableMerchant); undefined for no such
   * merchant. The operator's: no route reaches it.
   */
  async disable(merchantId: string): Promise<Merchant | undefined> {
    const row = await disableMerchant(this.db, merchantId);
    this.#forget();
    return row && merchantOf(row);
  }

  /** Whether the operator disabled the merchant (false for one that does not exist); `sql` may be an open transaction. */
  async disabled(sql: Sql, merchantId: string): Promise<boolean> {
    return (await this.#disabled.get(merchantId, async () => (await merchantById(sql, merchantId))?.disabled_at != null)) === true;
  }

  /** The client secret that keys a merchant's signatures; `sql` may be an open transaction. */
  async clientSecret(sql: Sql, merchantId: string): Promise<string> {
    const secret = await this.#secrets.get(merchantId, async () => {
      const row = await merchantById(sql, merchantId);
      return row && this.sealer.open(row.client_secret_sealed);
    });
    if (secret === undefined) throw new Error(`no merchant ${merchantId}`);
    return secret;
  }

  /** A cache of what was read of credentials, cleared whenever they change in this process or another. */
  cache<V>(keepMs: number, max?: number): CredentialCache<V> {
    const cache = new CredentialCache<V>(keepMs, max);
    this.#caches.push(cache as CredentialCache<unknown>);
    return cache;
  }

  #forget(): void {
    for (const cache of this.#caches) cache.clear();
  }
}

const merchantOf = (row: MerchantRow): Merchant => ({ merchant_id: row.merchant_id, name: row.name, client_id: row.client_id, disabled: row.disabled_at !== null });

/** The secret a roll replaced, while its grace lasts. */
function graceOf(row: MerchantRow, now: Date): { hash: string; sealed: string; expiresAt: Date } | undefined {
  const { previous_secret_hash: hash, previous_secret_sealed: sealed, previous_secret_expires_at: expiresAt } = row;
  return hash && sealed && expiresAt && expiresAt > now ? { hash, sealed, expiresAt } : undefined;
}
