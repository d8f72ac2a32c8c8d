// Opaque bearer tokens: random, stored as hashes, expiring.
import type { TokenResponse } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { randomToken, sha256 } from '../secrets.js';
import type { Database } from '../storage/database.js';
import { insertToken, merchantOfLiveToken } from '../storage/tokens.js';
import type { Merchant } from './merchants.js';

export class Tokens {
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
  merchantOf(token: string): Promise<string | undefined> {
    return merchantOfLiveToken(this.db, sha256(token), this.clock.now());
  }
}
