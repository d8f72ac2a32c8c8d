// Opaque bearer tokens: random, stored as hashes, expiring, and ending with the client secret that issued them (a
// roll, or a restart with another secret). Every merchant API call presents one, so a token read is kept in memory
// until it ends, and dropped with everything else cached of merchants when credentials change in any process on the
// database (merchants.ts: a roll here drops it before its answer, another process's as soon as its NOTIFY arrives).
import type { TokenResponse } from '../../../contract/index.js';
import type { Environment } from '../../../contract/rules.js';
import type { Clock } from '../../clock.js';
import { sha256 } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { insertToken, liveToken } from '../../storage/tokens.js';
import type { CredentialCache } from './credential-cache.js';
import { issueCredential } from './credentials.js';
import type { AuthenticatedClient, Merchants } from './merchants.js';

/**
 * How long a token read is trusted without a word from the database: should a notification be missed (the listening
 * connection lost), the longest a rolled secret's token goes on working in another process.
 */
const CACHE_MS = 5_000;
/** Tokens kept at most (credential-cache.ts). */
const CACHE_MAX = 10_000;

export class Tokens {
  /** Live tokens by hash: their merchant, and when they end by the gateway's clock. */
  readonly #live: CredentialCache<{ merchantId: string; disabled: boolean; endsAt: number }>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    merchants: Merchants,
    /** Names the tokens it issues (credentials.ts). */
    private readonly environment: Environment,
  ) {
    this.#live = merchants.cache(CACHE_MS, CACHE_MAX);
  }

  /** A token for the merchant, which ends with the secret it signed in with (at the latest, when its grace ends). */
  async issue(client: AuthenticatedClient): Promise<TokenResponse> {
    const token = issueCredential(this.environment, 'accessToken');
    const now = this.clock.now();
    const ttl = Math.min(this.ttlSeconds * 1000, (client.secret_expires_at?.getTime() ?? Infinity) - now.getTime());
    await insertToken(this.db, sha256(token), client.merchant_id, client.secret_generation, new Date(now.getTime() + ttl), now);
    return { access_token: token, token_type: 'bearer', expires_in: Math.floor(ttl / 1000) };
  }

  /**
   * The merchant a live token belongs to, and whether the operator disabled it (then the token works no more), or
   * undefined for an unknown, expired or ended token.
   */
  async merchantOf(token: string): Promise<{ merchantId: string; disabled: boolean } | undefined> {
    const [hash, now] = [sha256(token), this.clock.now()];
    const live = await this.#live.get(
      hash,
      async () => {
        const row = await liveToken(this.db, hash, now);
        return row && { merchantId: row.merchant_id, disabled: row.disabled, endsAt: row.ends_at.getTime() };
      },
      (kept) => kept.endsAt > now.getTime(),
    );
    return live && { merchantId: live.merchantId, disabled: live.disabled };
  }
}
