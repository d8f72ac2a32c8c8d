// Credentials name their environment (docs/security.md, "Credentials name their environment"): a sandbox gateway and
// a live one (Ethereum on anvil, as test/operations/live.test.ts starts it, in process) each issue credentials and
// tokens under their own prefix, and refuse every kind of the other environment's, made up and never seen by their
// database, with a 401 that names the environment it belongs to: before any statement runs, and uncounted as a wrong
// secret. A property over random suffixes holds the refusal to the prefix alone.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Environment } from '../../src/contract/rules.js';
import { MerchantClient, PayCheckoutApiError } from '../../src/merchant/index.js';
import type { ConfigError} from '../../src/sandbox/config.js';
import { loadConfig, SANDBOX_DEFAULTS, type MerchantCredentials } from '../../src/sandbox/config.js';
import {
  CREDENTIAL_KINDS,
  ENVIRONMENT_PREFIXES,
  environmentOf,
  issueCredential,
  issueCredentials,
  otherEnvironmentRefusal,
  type CredentialKind,
} from '../../src/sandbox/services/merchant/credentials.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { startTestChain, type TestChain } from '../helpers/anvil.js';
import { startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { liveEnv } from '../helpers/live.js';
import { FORM, JSON_TYPE, send, signedLinkBody, type Answer } from '../helpers/merchant-api.js';

const OTHER: Record<Environment, Environment> = { sandbox: 'live', live: 'sandbox' };
/** What a refusal of `environment`'s credential says, by a gateway of the other. */
const REFUSAL: Record<Environment, RegExp> = {
  live: /is a live credential \(it begins live_\); this gateway is the sandbox: send it to the live gateway/,
  sandbox: /is a sandbox credential \(it begins (test|sandbox)_\); this gateway is live: send it to the sandbox gateway/,
};
const KINDS = Object.keys(CREDENTIAL_KINDS) as CredentialKind[];
/** What follows a prefix: anything a header or a form field carries (a Bearer token is one run of non-space). */
const suffix = fc.stringMatching(/^[!-~]{0,80}$/);

describe('the prefix scheme', () => {
  it('issues each kind of credential URL-safe and random, under its environment and its kind', () => {
    for (const environment of ['sandbox', 'live'] as const) {
      const prefix = ENVIRONMENT_PREFIXES[environment][0];
      const issued = issueCredentials(environment);
      assert.match(issued.client_id, new RegExp(`^${prefix}client_[A-Za-z0-9_-]{22}$`));
      assert.match(issued.client_secret, new RegExp(`^${prefix}secret_[A-Za-z0-9_-]{43}$`));
      assert.match(issued.merchant_key, new RegExp(`^${prefix}merchant_key_[A-Za-z0-9_-]{43}$`));
      assert.notDeepEqual(issueCredentials(environment), issued);
      for (const kind of KINDS) assert.equal(environmentOf(issueCredential(environment, kind))?.environment, environment, kind);
    }
  });

  it("takes the sandbox merchant's public defaults as sandbox ones, and names no environment for an unprefixed credential", () => {
    for (const value of Object.values(SANDBOX_DEFAULTS)) assert.deepEqual(environmentOf(value), { environment: 'sandbox', prefix: 'sandbox_' }, value);
    for (const value of ['client_1', 'at_x', 'livex', 'Live_x', 'testing', '']) assert.equal(environmentOf(value), undefined, value);
  });

  it('refuses by the prefix alone: whatever follows it, any kind of the other environment, never its own or none', () => {
    fc.assert(
      fc.property(fc.constantFrom<Environment>('sandbox', 'live'), fc.constantFrom(...KINDS, undefined), suffix, (environment, kind, rest) => {
        const tail = `${kind === undefined ? '' : `${CREDENTIAL_KINDS[kind]}_`}${rest}`;
        for (const prefix of ENVIRONMENT_PREFIXES[OTHER[environment]]) assert.match(otherEnvironmentRefusal(prefix + tail, environment, 'client_secret') ?? '', REFUSAL[OTHER[environment]]);
        for (const prefix of ENVIRONMENT_PREFIXES[environment]) assert.equal(otherEnvironmentRefusal(prefix + tail, environment, 'client_secret'), undefined);
        if (environmentOf(rest) === undefined) assert.equal(otherEnvironmentRefusal(rest, environment, 'client_secret'), undefined);
      }),
    );
  });

  it('refuses a sandbox started with a SANDBOX_* credential that names live, which it would refuse at every request', () => {
    const env = { SANDBOX_CLIENT_ID: 'live_client_x', SANDBOX_CLIENT_SECRET: 'live_secret_x', SANDBOX_MERCHANT_KEY: 'live_merchant_key_x' };
    assert.throws(
      () => loadConfig(env),
      (error: ConfigError) => {
        assert.deepEqual(
          error.problems.map((p) => p.split(' ')[0]),
          Object.keys(env),
        );
        assert.match(error.problems[0]!, /^SANDBOX_CLIENT_ID begins live_, which names a live credential/);
        return true;
      },
    );
    assert.equal(loadConfig({ SANDBOX_CLIENT_ID: 'shop_client', SANDBOX_CLIENT_SECRET: 'anything at all' }).sandboxMerchant.clientSecret, 'anything at all', 'taken as given');
  });
});

/** Runs `work`, failing if it ran any statement on `db`. */
async function withoutStatements<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const { query, transaction } = db;
  const ran: string[] = [];
  Object.assign(db, {
    query: (text: string, params?: readonly unknown[]) => (ran.push(text), query.call(db, text, params)),
    transaction: (fn: Parameters<Database['transaction']>[0]) => (ran.push('a transaction'), transaction.call(db, fn)),
  });
  try {
    return await work();
  } finally {
    Object.assign(db, { query, transaction });
    assert.deepEqual(ran, [], 'a statement ran');
  }
}

interface Refused {
  what: string;
  answer: Answer<Record<string, unknown>>;
  /** What the refusal says, where this kind of answer says it. */
  detail: unknown;
}

/** A gateway's merchant, and what a made-up credential of another environment meets at each place a credential is taken. */
async function refusals(gw: TestGateway, own: MerchantCredentials, other: { client_id: string; client_secret: string; merchant_key: string; access_token: string }): Promise<Refused[]> {
  const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    send(gw.url, 'POST', '/api/v2/oauth/token', { headers: { ...FORM, ...headers }, body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }) });
  const basic = (id: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });
  const oauth = (what: string, answer: Answer<Record<string, unknown>>): Refused => ({ what, answer, detail: answer.body.error_description });
  const problem = (what: string, answer: Answer<Record<string, unknown>>): Refused => ({ what, answer, detail: answer.body.detail });
  return [
    oauth('client_id in the form', await tokenRequest({ client_id: other.client_id, client_secret: own.clientSecret })),
    oauth('client_secret in the form', await tokenRequest({ client_id: own.clientId, client_secret: other.client_secret })),
    oauth('both in Basic', await tokenRequest({}, basic(other.client_id, other.client_secret))),
    oauth('client_secret in Basic', await tokenRequest({}, basic(own.clientId, other.client_secret))),
    problem('a Bearer token', await send(gw.url, 'GET', '/api/webhooks/endpoints', { headers: { Authorization: `Bearer ${other.access_token}` } })),
    problem('svc_key', await send(gw.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody({ merchantKey: other.merchant_key, clientSecret: other.client_secret })) })),
  ];
}

function assertRefused(refused: Refused[], belongsTo: Environment): void {
  for (const { what, answer, detail } of refused) {
    const shown = `${what}: ${answer.status} ${JSON.stringify(answer.body)}`;
    assert.equal(answer.status, 401, shown);
    assert.match(answer.headers.get('content-type') ?? '', what.includes('Bearer') || what === 'svc_key' ? /^application\/problem\+json/ : /^application\/json/, shown);
    assert.match(String(detail), REFUSAL[belongsTo], shown);
  }
}

describe(`a sandbox gateway and a live gateway (${storageName})`, () => {
  let chain: TestChain;
  let folder: string;
  const gateways = {} as Record<Environment, { gw: TestGateway; merchant: MerchantCredentials }>;
  before(async () => {
    chain = await startTestChain();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-environments-'));
    const live = await startTestGateway({ config: loadConfig(await liveEnv(chain, folder)) });
    const sandbox = await startTestGateway();
    // Each with a merchant as the operator's command adds it (issueCredentials).
    gateways.live = { gw: live, merchant: (await live.addMerchant('Live Merchant')).credentials };
    gateways.sandbox = { gw: sandbox, merchant: (await sandbox.addMerchant('Sandbox Shop')).credentials };
  });
  after(async () => {
    await Promise.all(Object.values(gateways).map(({ gw }) => gw.close()));
    await chain?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  for (const environment of ['sandbox', 'live'] as const) {
    const prefix = ENVIRONMENT_PREFIXES[environment][0];
    const other = OTHER[environment];

    it(`${environment}: every credential and token it issues begins ${prefix} and its kind`, async () => {
      const { gw, merchant } = gateways[environment];
      const client = new MerchantClient({ baseUrl: gw.url, ...merchant });
      const token = await client.issueToken();
      assert.match(token.access_token, new RegExp(`^${prefix}at_[A-Za-z0-9_-]{43}$`));
      const endpoint = await client.addWebhookEndpoint('https://93.184.216.34/pay');
      assert.match(endpoint.secret, new RegExp(`^${prefix}whsec_[A-Za-z0-9_-]{32}$`));
      const rolled = await client.rollClientSecret({ expiresIn: 60 });
      assert.match(rolled.client_secret, new RegExp(`^${prefix}secret_[A-Za-z0-9_-]{43}$`));
      const after = new MerchantClient({ baseUrl: gw.url, ...merchant, clientSecret: rolled.client_secret });
      assert.match((await after.issueToken()).access_token, new RegExp(`^${prefix}at_`));
      gateways[environment].merchant = { ...merchant, clientSecret: rolled.client_secret };
    });

    it(`${environment}: refuses each kind of ${other} credential, made up, naming ${other}, before any statement runs`, async () => {
      const { gw, merchant } = gateways[environment];
      const made = { ...issueCredentials(other), access_token: issueCredential(other, 'accessToken') };
      assertRefused(await withoutStatements(gw.gateway.db, () => refusals(gw, merchant, made)), other);
      // The SDK's error says what the gateway said.
      const client = new MerchantClient({ baseUrl: gw.url, clientId: made.client_id, clientSecret: made.client_secret, merchantKey: made.merchant_key });
      await assert.rejects(client.listWebhookEndpoints(), (error: PayCheckoutApiError) => error instanceof PayCheckoutApiError && error.status === 401 && REFUSAL[other].test(error.message));
    });

    it(`${environment}: counts no ${other} secret as a wrong one, so past the limit its merchant still signs in`, async () => {
      const { gw, merchant } = gateways[environment];
      const limit = gw.gateway.config.limits.failedSecretsPerClientId;
      for (let i = 0; i <= limit; i++) {
        const [, refused] = await refusals(gw, merchant, { ...issueCredentials(other), access_token: issueCredential(other, 'accessToken') });
        assertRefused([refused!], other);
      }
      const answer = await send(gw.url, 'POST', '/api/v2/oauth/token', {
        headers: FORM,
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: merchant.clientId, client_secret: merchant.clientSecret }),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    });

    it(`${environment}: refuses by the prefix alone, whatever follows it (random suffixes)`, async () => {
      const { gw, merchant } = gateways[environment];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ENVIRONMENT_PREFIXES[other]), fc.array(suffix, { minLength: 4, maxLength: 4 }), async (otherPrefix, [id, secret, key, token]) => {
          const made = { client_id: otherPrefix + id!, client_secret: otherPrefix + secret!, merchant_key: otherPrefix + key!, access_token: otherPrefix + token! };
          assertRefused(await withoutStatements(gw.gateway.db, () => refusals(gw, merchant, made)), other);
        }),
        { numRuns: 25 },
      );
    });
  }

  it("live: refuses the sandbox merchant's public defaults, as the sandbox takes them from the environment", async () => {
    const { gw, merchant } = gateways.live;
    const defaults = { client_id: SANDBOX_DEFAULTS.clientId, client_secret: SANDBOX_DEFAULTS.clientSecret, merchant_key: SANDBOX_DEFAULTS.merchantKey, access_token: issueCredential('sandbox', 'accessToken') };
    const refused = await withoutStatements(gw.gateway.db, () => refusals(gw, merchant, defaults));
    assertRefused(refused, 'sandbox');
    assert.match(String(refused[0]!.detail), /^client_id is a sandbox credential \(it begins sandbox_\); this gateway is live/);
  });
});
