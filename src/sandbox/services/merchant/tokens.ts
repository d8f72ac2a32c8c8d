// Opaque bearer tokens: random, stored as hashes, expiring, and ending with the client secret that issued them (a
// roll, or a restart with another secret). That can happen in any process on the database, so every use reads the
// token with its merchant's secret generation: one indexed statement, nothing cached that a roll could leave behind.
import type { TokenResponse } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { randomToken, sha256 } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { insertToken, liveToken } from '../../storage/tokens.js';
import type { AuthenticatedClient } from './merchants.js';

export class Tokens {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

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
    return (await liveToken(this.db, sha256(token), this.clock.now()))?.merchant_id;
  }
}
