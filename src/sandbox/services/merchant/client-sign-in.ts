// Checking a client id and secret (the token endpoint, and through it the portal's sign-in), with wrong secrets counted
// per client id and per client address (docs/security.md, "Limits"): past either limit, a 429 until the window ends,
// right secret or not, so guessing is slow; the window ends on its own, so the real merchant is never locked out for good.
// The portal's sign-ins are counted per merchant too, once the secret is right, so a wrong one cannot use them up.
// The secret a roll replaced is not a guess: a server not yet given the new one sends it, and counted, it would lock
// the client id, new secret included, for as long as it kept trying. It is refused, uncounted, and said to be replaced.
import type { LimitSettings } from '../../config.js';
import { sha256 } from '../../secrets.js';
import type { AuthenticatedClient, Merchants } from './merchants.js';
import type { Rate, RateLimits } from '../operations/rate-limits.js';

export class ClientSignIn {
  constructor(
    private readonly merchants: Merchants,
    private readonly rateLimits: RateLimits,
    private readonly limits: Pick<LimitSettings, 'failedSecretsPerClientId' | 'failedSecretsPerAddress' | 'failedSecretWindowSeconds' | 'signInsPerMerchantPerMinute'>,
  ) {}

  /**
   * The merchant of these credentials; `'replaced'` for the secret the last roll replaced (Merchants.authenticateClient);
   * undefined otherwise. `address` is the client's (none for a request made in process).
   */
  async authenticate(clientId: string, clientSecret: string, address: string | undefined): Promise<AuthenticatedClient | 'replaced' | undefined> {
    const counted = this.#counted(clientId, address);
    for (const [key, rate] of counted) await this.rateLimits.check(key, rate);
    const merchant = await this.merchants.authenticateClient(clientId, clientSecret);
    if (!merchant) for (const [key, rate] of counted) await this.rateLimits.count(key, rate);
    return merchant;
  }

  /** Counts a portal sign-in of the merchant of `clientId` (its secret already checked); a 429 past the limit. */
  async countSignIn(clientId: string): Promise<void> {
    const rate = { limit: this.limits.signInsPerMerchantPerMinute, windowSeconds: 60, refusal: 'Too many sign-ins for this merchant.' };
    await this.rateLimits.take(`sign-in:${sha256(clientId)}`, rate);
  }

  #counted(clientId: string, address: string | undefined): [string, Rate][] {
    const windowSeconds = this.limits.failedSecretWindowSeconds;
    const refusal = 'Too many wrong client secrets';
    return [
      // Hashed: a client id is whatever the request sent (any length, even a NUL, which PostgreSQL text refuses).
      [`secret:client:${sha256(clientId)}`, { limit: this.limits.failedSecretsPerClientId, windowSeconds, refusal: `${refusal} for this client id.` }],
      ...(address === undefined ? [] : [[`secret:address:${address}`, { limit: this.limits.failedSecretsPerAddress, windowSeconds, refusal: `${refusal} from this address.` }] as [string, Rate]]),
    ];
  }
}
