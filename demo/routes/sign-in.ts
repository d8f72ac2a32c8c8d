// Signing in to the portal and out: the form's credentials, checked by the gateway's token endpoint, or (from this
// machine only) the sandbox merchant's in one click; and a new client secret for the merchant signed in.
import { Hono, type Context } from 'hono';
import { ClientSecretRollRequest, object, SECRET_REPLACED, text } from '../../src/contract/index.js';
import type { Environment } from '../../src/contract/rules.js';
import { PayCheckoutApiError, type MerchantClient } from '../../src/merchant/index.js';
import { otherEnvironmentRefusal, parseWith, ProblemError, readJsonObject, unauthorized } from '../gateway-internals.js';
import type { Credentials, SandboxMerchant } from '../sandbox-merchant.js';
import { fromThisMachine, ownPagesOnly, sessionView, type SessionEnv, type Sessions } from '../session.js';
import { disabledMerchant } from './errors.js';

export interface SignInOptions {
  /** The gateway's (GATEWAY_ENV): a credential or session of the other one is refused, naming it. */
  environment: Environment;
  /** The SDK for a merchant's credentials (for `npm start`, the gateway in the same process). */
  clientFor(credentials: Credentials): MerchantClient;
  /** Counts a sign-in of a merchant whose secret was right; throws a 429 past LIMIT_SIGN_INS_PER_MERCHANT_PER_MINUTE. */
  countSignIn(clientId: string): Promise<void>;
  /** Whether the sandbox merchant may sign in without its secret (from this machine only): SANDBOX_SECRETLESS_SIGN_IN. */
  secretlessSignIn?: boolean;
}

const SignIn = object({ client_id: text(200, 1), client_secret: text(200, 1) });

/** The sign-in, and under /demo/api/ (behind the session demo/server.ts requires) the session and the roll. */
export function signInRoutes(options: SignInOptions, sessions: Sessions, sandbox: SandboxMerchant): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();
  const secretless = (c: Context<SessionEnv>) => options.secretlessSignIn === true && fromThisMachine(c);

  app.get('/demo/sign-in', (c) => c.json({ sandbox_sign_in: secretless(c), signed_in: sessions.of(c) !== undefined }));
  app.post('/demo/sign-in', ownPagesOnly(), async (c) => {
    const body = await readJsonObject(c);
    let credentials: Credentials;
    if (body.sandbox === true) {
      if (!secretless(c)) {
        throw new ProblemError(
          403,
          'Signing in as the sandbox merchant without its secret is on only when SANDBOX_SECRETLESS_SIGN_IN=1, and then for this machine only, at a loopback address, not through a proxy.',
        );
      }
      credentials = sandbox.credentials;
    } else {
      const { client_id, client_secret } = parseWith(SignIn, body);
      // Before the gateway is asked, which would answer the same, and which the catch below would turn into a mismatch.
      const refusal = otherEnvironmentRefusal(client_id, options.environment, 'client_id') ?? otherEnvironmentRefusal(client_secret, options.environment, 'client_secret');
      if (refusal) throw unauthorized(refusal);
      credentials = { clientId: client_id, clientSecret: client_secret, merchantKey: client_id === sandbox.credentials.clientId ? sandbox.credentials.merchantKey : '' };
    }
    const client = options.clientFor(credentials);
    try {
      await client.issueToken();
    } catch (error) {
      // A 429 (too many wrong secrets) goes to the page as the gateway said it, with when to try again; so does the
      // secret a roll replaced, which is no mistyping.
      if (
        error instanceof PayCheckoutApiError &&
        error.status < 500 &&
        error.status !== 429 &&
        error.oauthError?.error_description !== SECRET_REPLACED &&
        !disabledMerchant(error)
      ) {
        throw unauthorized('The client id and client secret do not match a merchant.');
      }
      throw error;
    }
    await options.countSignIn(credentials.clientId);
    return c.json(sessionView(sessions.start(c, { clientId: credentials.clientId, sandbox: credentials.clientId === sandbox.credentials.clientId, client })));
  });

  app.get('/demo/api/session', (c) => c.json(sessionView(c.get('session'))));
  app.delete('/demo/api/session', (c) => {
    sessions.end(c, c.get('session'));
    return c.body(null, 204);
  });

  // A new client secret, shown once. This session goes on with it; every other session of the merchant, here or in
  // another process, ends when the old secret does (now, or after the grace): its next call to the gateway is a 401.
  app.post('/demo/api/client-secret/roll', async (c) => {
    const session = c.get('session');
    const { expires_in } = parseWith(ClientSecretRollRequest, await readJsonObject(c, { optional: true }));
    const rolled = await session.client.rollClientSecret(expires_in === undefined ? {} : { expiresIn: expires_in });
    if (session.sandbox) sandbox.secretRolled(rolled.client_secret);
    return c.json(rolled, 200, { 'Cache-Control': 'no-store' });
  });
  return app;
}
