// POST {auth_url}/api/v2/oauth/token: the client-credentials grant (RFC 6749 4.4), errors as RFC 6749 5.2.
import type { Context } from 'hono';
import { MERCHANT_DISABLED, SECRET_REPLACED, TokenRequest, TokenResponse, type TokenError } from '../../contract/index.js';
import { clientAddress } from '../http/client-address.js';
import { otherEnvironmentRefusal } from '../services/merchant/credentials.js';
import type { Services } from '../services.js';
import { route, type RouteGroup } from './route.js';

class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly body: TokenError,
    readonly basic = false,
  ) {
    super(body.error_description);
  }
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** Client credentials from HTTP Basic (RFC 6749 2.3.1: each part form-encoded), if the header carries them. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(401, { error: 'invalid_client', error_description: 'The Basic credentials must be client_id:client_secret.' }, true);
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  try {
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(401, { error: 'invalid_client', error_description: 'The Basic credentials are not form-encoded.' }, true);
  }
}

type Uses = Pick<Services, 'clientSignIn' | 'tokens' | 'config'>;

function issueToken({ clientSignIn, tokens, config }: Uses) {
  return async (c: Context) => {
    try {
      const type = c.req.header('Content-Type') ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
        throw new OAuthError(400, { error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' });
      }
      const form = new URLSearchParams(await c.req.text());
      const field = (name: string) => {
        const values = form.getAll(name);
        if (values.length > 1) throw new OAuthError(400, { error: 'invalid_request', error_description: `${name} is repeated.` });
        return values[0] || undefined;
      };
      const grantType = field('grant_type');
      if (!grantType) throw new OAuthError(400, { error: 'invalid_request', error_description: 'grant_type is required.' });
      if (grantType !== 'client_credentials') {
        throw new OAuthError(400, { error: 'unsupported_grant_type', error_description: 'Only grant_type=client_credentials is supported.' });
      }
      // An empty Authorization header, as the merchant API's sample sends, means "credentials are in the body".
      const basic = basicCredentials(c.req.header('Authorization'));
      const bodyId = field('client_id');
      const bodySecret = field('client_secret');
      if (basic && ((bodyId && bodyId !== basic.id) || (bodySecret && bodySecret !== basic.secret))) {
        throw new OAuthError(400, { error: 'invalid_request', error_description: 'Send client credentials once: in the Authorization header or in the body.' });
      }
      const id = basic?.id ?? bodyId;
      const secret = basic?.secret ?? bodySecret;
      if (!id || !secret) {
        throw new OAuthError(401, { error: 'invalid_client', error_description: 'client_id and client_secret are required.' }, Boolean(basic));
      }
      // Told by their prefixes alone (services/merchant/credentials.ts): no lookup, and not counted as a wrong secret,
      // since no secret of this gateway was tried (docs/security.md, "Credentials name their environment").
      const refusal = otherEnvironmentRefusal(id, config.environment, 'client_id') ?? otherEnvironmentRefusal(secret, config.environment, 'client_secret');
      if (refusal) throw new OAuthError(401, { error: 'invalid_client', error_description: refusal }, Boolean(basic));
      // The portal's sign-in asks in process: it has no address of its own here, and is counted per client id only.
      const address = clientAddress(c);
      const merchant = await clientSignIn.authenticate(id, secret, address === 'in-process' ? undefined : address);
      if (merchant === 'replaced') {
        throw new OAuthError(401, { error: 'invalid_client', error_description: SECRET_REPLACED }, Boolean(basic));
      }
      if (!merchant) throw new OAuthError(401, { error: 'invalid_client', error_description: 'Unknown client or wrong secret.' }, Boolean(basic));
      if (merchant.disabled) throw new OAuthError(401, { error: 'invalid_client', error_description: MERCHANT_DISABLED }, Boolean(basic));
      return c.json(await tokens.issue(merchant), 200, NO_STORE);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const challenge = error.basic ? { 'WWW-Authenticate': 'Basic realm="pay-checkout"' } : undefined;
      return c.json(error.body, error.status, { ...NO_STORE, ...challenge });
    }
  };
}

export const oauthRoutes: RouteGroup<Uses> = {
  routes: [
    route(
      'post',
      '/api/v2/oauth/token',
      { tag: 'Merchant', summary: 'Issue an access token (client credentials)', auth: 'client', body: { form: TokenRequest }, ok: { 200: TokenResponse }, errors: [429] },
      issueToken,
    ),
  ],
};
