import type { MiddlewareHandler } from 'hono';
import { MERCHANT_DISABLED } from '../../contract/index.js';
import type { Environment } from '../../contract/rules.js';
import { otherEnvironmentRefusal } from '../services/merchant/credentials.js';
import type { Tokens } from '../services/merchant/tokens.js';
import { unauthorized } from './problem.js';

export type BearerEnv = { Variables: { merchantId: string } };

const INVALID_TOKEN = { 'WWW-Authenticate': 'Bearer realm="pay-checkout", error="invalid_token"' };

/**
 * Bearer tokens from the token endpoint (RFC 6750): the merchant behind a live token, else 401 (also for a disabled
 * merchant's); a token of the other environment is refused by its prefix, before it is looked up
 * (services/merchant/credentials.ts).
 */
export function bearer(tokens: Tokens, environment: Environment): MiddlewareHandler<BearerEnv> {
  return async (c, next) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    if (!token) throw unauthorized('An access token is required: Authorization: Bearer <access_token>.', { 'WWW-Authenticate': 'Bearer realm="pay-checkout"' });
    const refusal = otherEnvironmentRefusal(token, environment, 'The access token');
    if (refusal) throw unauthorized(refusal, INVALID_TOKEN);
    const merchant = await tokens.merchantOf(token);
    if (!merchant) throw unauthorized('The access token is unknown or has expired; issue a new one.', INVALID_TOKEN);
    if (merchant.disabled) throw unauthorized(MERCHANT_DISABLED, INVALID_TOKEN);
    c.set('merchantId', merchant.merchantId);
    await next();
  };
}
