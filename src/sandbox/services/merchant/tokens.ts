// Opaque bearer tokens: random, stored as hashes, expiring. A token is never revoked before it expires, so what a
// process has read of one holds until then: each request with it needs no query.
import type { TokenResponse } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { randomToken, sha256 } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { insertToken, liveToken } from '../../storage/tokens.js';
import type { Merchant } from './merchants.js';

/** How many tokens a process remembers; the oldest read goes first. */
const TOKENS_KEPT = 10_000;

export class Tokens {
  readonly #live = new Map<string, { merchantId: string; expiresAt: number }>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  async issue(merchant: Merchant): Promise<TokenResponse> {
    const token = randomToken('at');
    const now = this.clock.now();
    await insertToken(this.db, sha256(token), merchant.merchant_id, new Date(now.getTime() + this.ttlSeconds * 1000), now);
    return { access_token: token, token_type: 'bearer', expires_in: this.ttlSeconds };
  }

  /** The merchant id a live token belongs to, or undefined for an unknown or expired token. */
  async merchantOf(token: string): Promise<string | undefined> {
    const hash = sha256(token);
    const now = this.clock.now();
    const known = this.#live.get(hash);
    if (known && known.expiresAt > now.getTime()) return known.merchantId;
    const row = await liveToken(this.db, hash, now);
    if (!row) return undefined;
    if (this.#live.size >= TOKENS_KEPT) this.#live.delete(this.#live.keys().next().value!);
    this.#live.set(hash, { merchantId: row.merchant_id, expiresAt: row.expires_at.getTime() });
    return row.merchant_id;
  }
}
