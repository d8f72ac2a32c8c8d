import type { MiddlewareHandler } from 'hono';
import { MERCHANT_DISABLED } from '../../contract/index.js';
import type { Tokens } from '../services/merchant/tokens.js';
import { unauthorized } from './problem.js';

export type BearerEnv = { Variables: { merchantId: string } };

/** Bearer tokens from the token endpoint (RFC 6750): the merchant behind a live token, else 401 (also for a disabled merchant's). */
export function bearer(tokens: Tokens): MiddlewareHandler<BearerEnv> {
  return async (c, next) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    if (!token) throw unauthorized('An access token is required: Authorization: Bearer <access_token>.', { 'WWW-Authenticate': 'Bearer realm="pay-checkout"' });
    const merchant = await tokens.merchantOf(token);
    if (!merchant) {
      throw unauthorized('The access token is unknown or has expired; issue a new one.', {
        'WWW-Authenticate': 'Bearer realm="pay-checkout", error="invalid_token"',
      });
    }
    if (merchant.disabled) throw unauthorized(MERCHANT_DISABLED, { 'WWW-Authenticate': 'Bearer realm="pay-checkout", error="invalid_token"' });
    c.set('merchantId', merchant.merchantId);
    await next();
  };
}
