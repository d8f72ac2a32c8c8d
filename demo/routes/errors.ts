// Gateway errors go to the page as the gateway sent them (status and problem details), so it can show them by field.
import type { ErrorHandler } from 'hono';
import { MERCHANT_DISABLED, type Problem } from '../../src/contract/index.js';
import { PayCheckoutApiError } from '../../src/merchant/index.js';
import { unauthorized } from '../gateway-internals.js';
import type { Session, SessionEnv, Sessions } from '../session.js';

export function gatewayErrors(sessions: Sessions): ErrorHandler<SessionEnv> {
  return (error, c) => {
    if (!(error instanceof PayCheckoutApiError)) throw error;
    // The session's secret no longer gets a token (rolled, or changed at a restart), or the operator disabled the
    // merchant: the session ends with it.
    const session = c.get('session') as Session | undefined;
    if (error.status === 401 && session) {
      sessions.end(c, session);
      throw unauthorized(disabledMerchant(error) ? MERCHANT_DISABLED : 'Sign in again: the merchant\'s client secret changed, which ended this session.');
    }
    const problem: Problem = error.problem ?? { title: 'Error', status: error.status, detail: error.message };
    const retryAfter = error.retryAfterMs === undefined ? undefined : { 'Retry-After': String(Math.ceil(error.retryAfterMs / 1000)) };
    return c.body(JSON.stringify(problem), error.status as 400, { ...retryAfter, 'Content-Type': 'application/problem+json' });
  };
}

/** The gateway refused a disabled merchant's token (a problem) or credentials (the token endpoint's answer). */
export const disabledMerchant = (error: PayCheckoutApiError) => error.problem?.detail === MERCHANT_DISABLED || error.oauthError?.error_description === MERCHANT_DISABLED;
