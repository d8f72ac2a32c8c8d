// Opaque bearer tokens: random, stored as hashes, expiring, and ending with the client secret that issued them (a
// roll, or a restart with another secret). Every merchant API call presents one, so a token read is kept in memory
// until it ends, and dropped with everything else cached of merchants when credentials change in any process on the
// database (merchants.ts: a roll here drops it before its answer, another process's as soon as its NOTIFY arrives).
import type { TokenResponse } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { randomToken, sha256 } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { insertToken, liveToken } from '../../storage/tokens.js';
import type { AuthenticatedClient, Merchants } from './merchants.js';

/**
 * How long a token read is trusted without a word from the database: should a notification be missed (the listening
 * connection lost), the longest a rolled secret's token goes on working in another process.
 */
const CACHE_MS = 5_000;
/** Tokens kept at most: beyond it the oldest reads go first, so a flood of new tokens costs reads, not memory. */
const CACHE_MAX = 10_000;

export class Tokens {
  /** Live tokens by hash: their merchant, when they end (by the gateway's clock), and until when the read is trusted. */
  readonly #live = new Map<string, { merchantId: string; endsAt: number; until: number }>();
  /** Counts the times credentials changed: a read begun before a change is not kept after it. */
  #changes = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    merchants: Merchants,
  ) {
    merchants.onCredentialsChanged(() => {
      this.#changes++;
      this.#live.clear();
    });
  }

  /** A token for the merchant, which ends with the secret it signed in with (at the latest, when its grace ends). */
  async issue(client: AuthenticatedClient): Promise<TokenResponse> {
    const token = randomToken('at');
    const now = this.clock.now();
    const ttl = Math.min(this.ttlSeconds * 1000, (client.secret_expires_at?.getTime() ?? Infinity) - now.getTime());
    await insertToken(this.db, sha256(token), client.merchant_id, client.secret_generation, new Date(now.getTime() + ttl), now);
    return { access_token: token, token_type: 'bearer', expires_in: Math.floor(ttl / 1000) };
  }

  /** The merchant id a live token belongs to, or undefined for an unknown, expired or ended token. */
  async merchantOf(token: string): Promise<string | undefined> {
    const hash = sha256(token);
    const now = this.clock.now();
    const kept = this.#live.get(hash);
    if (kept && kept.until > Date.now() && kept.endsAt > now.getTime()) return kept.merchantId;
    this.#live.delete(hash);
    const changes = this.#changes;
    const live = await liveToken(this.db, hash, now);
    if (!live) return undefined;
    if (changes !== this.#changes) return live.merchant_id;
    if (this.#live.size >= CACHE_MAX) this.#live.delete(this.#live.keys().next().value!);
    this.#live.set(hash, { merchantId: live.merchant_id, endsAt: live.ends_at.getTime(), until: Date.now() + CACHE_MS });
    return live.merchant_id;
  }
}
