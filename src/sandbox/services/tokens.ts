// Opaque bearer tokens: random, stored as hashes, expiring.
import type { TokenResponse } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { randomToken, sha256 } from '../secrets.js';
import { one, type Database } from '../storage/database.js';
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
    await this.db.transaction(async (tx) => {
      // Expired tokens are dropped as new ones are issued, so the table stays small.
      await tx.query('DELETE FROM access_tokens WHERE merchant_id = $1 AND expires_at <= $2', [merchant.merchant_id, now]);
      await tx.query('INSERT INTO access_tokens (token_hash, merchant_id, expires_at) VALUES ($1, $2, $3)', [
        sha256(token),
        merchant.merchant_id,
        new Date(now.getTime() + this.ttlSeconds * 1000),
      ]);
    });
    return { access_token: token, token_type: 'bearer', expires_in: this.ttlSeconds };
  }

  /** The merchant id a live token belongs to, or undefined for an unknown or expired token. */
  async merchantOf(token: string): Promise<string | undefined> {
    const row = await one<{ merchant_id: string }>(
      this.db,
      'SELECT merchant_id FROM access_tokens WHERE token_hash = $1 AND expires_at > $2',
      [sha256(token), this.clock.now()],
    );
    return row?.merchant_id;
  }
}
