// Every credential and token the gateway issues begins with its environment (DESIGN section 10; docs/security.md,
// "Credentials name their environment"): `test_` in the sandbox, `live_` in live, then its kind. The prefix alone
// tells a credential of the other environment, so it is refused before anything is looked up, whether or not this
// database has ever seen it. The sandbox merchant's credentials come from the environment as given (config.ts): its
// public defaults begin `sandbox_`, which names the sandbox too, so a live gateway refuses them as well.
import type { Environment } from '../../../contract/rules.js';
import { randomToken } from '../../secrets.js';

/** What each environment's credentials begin with; the first names the ones the gateway issues. */
export const ENVIRONMENT_PREFIXES: Record<Environment, readonly string[]> = { sandbox: ['test_', 'sandbox_'], live: ['live_'] };

/** What follows the environment's prefix, for each kind of credential and token. */
export const CREDENTIAL_KINDS = {
  clientId: 'client',
  clientSecret: 'secret',
  merchantKey: 'merchant_key',
  accessToken: 'at',
  webhookSecret: 'whsec',
  portalSession: 'session',
} as const;
export type CredentialKind = keyof typeof CREDENTIAL_KINDS;

/** Random bytes of each kind: a client id is also shown and stored as an id, so it is shorter. */
const BYTES: Record<CredentialKind, number> = { clientId: 16, clientSecret: 32, merchantKey: 32, accessToken: 32, webhookSecret: 24, portalSession: 32 };

/** A new random credential of `kind`, URL-safe, named by its environment: `live_at_…`, `test_secret_…`. */
export const issueCredential = (environment: Environment, kind: CredentialKind): string =>
  randomToken(`${ENVIRONMENT_PREFIXES[environment][0]}${CREDENTIAL_KINDS[kind]}`, BYTES[kind]);

export interface IssuedCredentials {
  client_id: string;
  client_secret: string;
  merchant_key: string;
}

/** A new merchant's credentials (`npm run merchants -- add`): its ClientId, Client Secret and Merchant Key. */
export function issueCredentials(environment: Environment): IssuedCredentials {
  return { client_id: issueCredential(environment, 'clientId'), client_secret: issueCredential(environment, 'clientSecret'), merchant_key: issueCredential(environment, 'merchantKey') };
}

/** The environment a credential's prefix names, and that prefix; undefined for one that names none (looked up as it is). */
export function environmentOf(credential: string): { environment: Environment; prefix: string } | undefined {
  for (const [environment, prefixes] of Object.entries(ENVIRONMENT_PREFIXES) as [Environment, readonly string[]][]) {
    const prefix = prefixes.find((p) => credential.startsWith(p));
    if (prefix) return { environment, prefix };
  }
  return undefined;
}

const NAMES: Record<Environment, { credential: string; gateway: string }> = {
  sandbox: { credential: 'a sandbox', gateway: 'the sandbox' },
  live: { credential: 'a live', gateway: 'live' },
};

/**
 * Why `credential` is refused by a gateway of `environment`, when its prefix names the other environment: `what` (the
 * field) is that environment's credential, and this gateway is not it. Undefined for a credential of this environment,
 * or of none, which is looked up as usual.
 */
export function otherEnvironmentRefusal(credential: string, environment: Environment, what: string): string | undefined {
  const named = environmentOf(credential);
  if (!named || named.environment === environment) return undefined;
  return `${what} is ${NAMES[named.environment].credential} credential (it begins ${named.prefix}); this gateway is ${NAMES[environment].gateway}: send it to the ${named.environment} gateway, or use this environment's credentials.`;
}
