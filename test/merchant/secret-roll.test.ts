// Rolling the client secret (docs/api.md, "Roll the client secret"): the new secret is answered once; the old one,
// and every token it issued, ends at once or when its grace ends, in every gateway process on the database; a
// restart with another secret ends them too; links signed with the old secret are taken only during the grace.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SECRET_REPLACED, type ClientSecretRoll, type Problem } from '../../src/contract/index.js';
import type { MerchantCredentials } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';
import { accessToken, FORM, JSON_TYPE, send, signedLinkBody } from '../helpers/merchant-api.js';

const ROLL = '/api/merchant/client-secret/roll';

describe(`rolling the client secret (${storageName})`, () => {
  const gw = useTestGateway();

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, ...JSON_TYPE });
  /** What a token may do: 200 while it lives, 401 once it ended. */
  const reads = async (token: string, url = gw.url) => (await send(url, 'GET', '/api/webhooks/endpoints', { headers: bearer(token) })).status;
  const roll = (token: string, body: unknown = {}) => send<ClientSecretRoll & Problem>(gw.url, 'POST', ROLL, { headers: bearer(token), body: JSON.stringify(body) });
  const tokenStatus = async (credentials: MerchantCredentials) =>
    (
      await send<{ expires_in: number }>(gw.url, 'POST', '/api/v2/oauth/token', {
        headers: FORM,
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret }),
      })
    );

  it('answers a new secret once; the old secret and its tokens end at once, the new one works', async () => {
    const { credentials } = await gw.addMerchant();
    const old = await accessToken(gw.url, credentials);
    assert.equal(await reads(old), 200);
    const rolled = await roll(old);
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.equal(rolled.headers.get('cache-control'), 'no-store');
    assert.equal(rolled.body.client_id, credentials.clientId);
    assert.equal(rolled.body.previous_secret_expires_at, null);
    assert.notEqual(rolled.body.client_secret, credentials.clientSecret);
    assert.match(rolled.body.client_secret, /^test_secret_[A-Za-z0-9_-]{43}$/);

    assert.equal(await reads(old), 401, 'the token of the old secret ended');
    assert.equal((await tokenStatus(credentials)).status, 401, 'the old secret gets no token');
    const fresh = { ...credentials, clientSecret: rolled.body.client_secret };
    assert.equal(await reads(await accessToken(gw.url, fresh)), 200);
    const refused = await send<Problem>(gw.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(credentials)) });
    assert.equal(refused.status, 401, 'a link signed with the old secret');
    assert.equal((await send(gw.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(fresh)) })).status, 201);
  });

  it('keeps the old secret and its tokens for the grace asked, and not a second longer', async () => {
    const { credentials } = await gw.addMerchant();
    const old = await accessToken(gw.url, credentials);
    const rolled = await roll(old, { expires_in: 600 });
    assert.equal(rolled.status, 200);
    assert.equal(rolled.body.previous_secret_expires_at, new Date(gw.clock.now().getTime() + 600_000).toISOString());
    const fresh = { ...credentials, clientSecret: rolled.body.client_secret };

    assert.equal(await reads(old), 200, 'during the grace');
    const during = await tokenStatus(credentials);
    assert.deepEqual([during.status, during.body.expires_in], [200, 600], 'a token of the old secret lasts no longer than its grace');
    assert.equal((await send(gw.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(credentials)) })).status, 201);

    gw.clock.advance(599_000);
    assert.equal(await reads(old), 200);
    gw.clock.advance(1_000);
    assert.equal(await reads(old), 401, 'the grace ended');
    assert.equal((await tokenStatus(credentials)).status, 401);
    assert.equal((await send(gw.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(credentials)) })).status, 401);
    assert.equal(await reads(await accessToken(gw.url, fresh)), 200);
  });

  it('ends a secret still in its grace when the secret is rolled again', async () => {
    const { credentials } = await gw.addMerchant();
    const first = await accessToken(gw.url, credentials);
    const second = await roll(first, { expires_in: 3_600 });
    const secondToken = await accessToken(gw.url, { ...credentials, clientSecret: second.body.client_secret });
    const third = await roll(secondToken, { expires_in: 3_600 });
    assert.equal(third.status, 200);
    assert.equal(await reads(first), 401, 'two secrets back');
    assert.equal((await tokenStatus(credentials)).status, 401);
    assert.equal(await reads(secondToken), 200, 'the one just replaced, in its grace');
  });

  it('tells a server still sending the replaced secret so, without counting it as a wrong secret: the new one is never locked out', async () => {
    const { credentials } = await gw.addMerchant();
    const rolled = await roll(await accessToken(gw.url, credentials), { expires_in: 60 });
    gw.clock.advance(60_000);
    // Over the 10 wrong secrets a client id may send in a window (docs/security.md, "Limits").
    for (let i = 0; i < 15; i++) {
      const old = await tokenStatus(credentials);
      assert.equal(old.status, 401, `try ${i + 1}`);
      assert.deepEqual(old.body, { error: 'invalid_client', error_description: SECRET_REPLACED });
    }
    const fresh = { ...credentials, clientSecret: rolled.body.client_secret };
    assert.equal((await tokenStatus(fresh)).status, 200, 'the new secret still gets a token');

    // Rolled again at once: the secret it replaced is the one recognised now; the first is a wrong secret like any other.
    const again = await roll(await accessToken(gw.url, fresh));
    const third = { ...credentials, clientSecret: again.body.client_secret };
    assert.match(JSON.stringify((await tokenStatus(fresh)).body), /replaced/);
    const wrong = await tokenStatus(credentials);
    assert.deepEqual(wrong.body, { error: 'invalid_client', error_description: 'Unknown client or wrong secret.' });
    for (let i = 0; i < 10; i++) await tokenStatus(credentials);
    assert.equal((await tokenStatus(third)).status, 429, 'wrong secrets still lock the client id for their window');
  });

  it('refuses a grace that is not 0 to 7 days of whole seconds, naming expires_in, and rolls nothing', async () => {
    const { credentials } = await gw.addMerchant();
    const token = await accessToken(gw.url, credentials);
    for (const expires_in of [-1, 604_801, 1.5, '60', null]) {
      const answer = await roll(token, { expires_in });
      assert.equal(answer.status, 422, `${JSON.stringify(expires_in)}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual(answer.body.errors?.map((e) => e.path), ['expires_in']);
    }
    assert.equal((await send(gw.url, 'POST', ROLL, { headers: { 'Content-Type': 'application/json' } })).status, 401, 'no token, no roll');
    assert.equal(await reads(token), 200, 'nothing rolled');
    assert.equal((await tokenStatus(credentials)).status, 200);
  });

  it('ends tokens of the old secret at a restart with another one, and keeps them at a restart with the same', async () => {
    const { credentials } = await gw.addMerchant();
    const token = await accessToken(gw.url, credentials);
    await gw.gateway.merchants.upsert(credentials);
    assert.equal(await reads(token), 200, 'the same secret');
    await gw.gateway.merchants.upsert({ ...credentials, clientSecret: `secret_${randomBytes(8).toString('hex')}` });
    assert.equal(await reads(token), 401, 'another secret');
    assert.equal((await tokenStatus(credentials)).status, 401);
  });

  it('rolls through the SDK, which goes on with the new secret', async () => {
    const { client } = await gw.addMerchant();
    await client.listWebhookEndpoints();
    const rolled = await client.rollClientSecret();
    assert.equal(rolled.previous_secret_expires_at, null);
    assert.deepEqual(await client.listWebhookEndpoints(), []);
  });
});

describe(`a roll seen by another gateway process on the same database (${storageName})`, { skip: !process.env.TEST_DATABASE_URL && 'PGlite has one process' }, () => {
  let first: TestGateway;
  let second: TestGateway;
  const schema = `test_roll_${randomBytes(6).toString('hex')}`;
  before(async () => {
    first = await startTestGateway({ schema });
    second = await startTestGateway({ schema });
  });
  after(async () => {
    await second.close();
    await first.close();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  // The other process hears of the roll by NOTIFY, which races the roll's answer to it: the test waits for it, but
  // for less than the 5 s a process trusts a kept token, so only the notification can end it in time.
  it('ends the old token in the other process on the roll\'s notification, before its 5 s re-read', async () => {
    const { credentials } = await first.addMerchant();
    const token = await accessToken(first.url, credentials);
    const readsOn = async (gw: TestGateway) => (await send(gw.url, 'GET', '/api/webhooks/endpoints', { headers: { Authorization: `Bearer ${token}` } })).status;
    assert.equal(await readsOn(second), 200, 'the other process knows the token');
    const rolled = await send(first.url, 'POST', ROLL, { headers: { Authorization: `Bearer ${token}`, ...JSON_TYPE }, body: '{}' });
    assert.equal(rolled.status, 200);
    assert.equal(await readsOn(first), 401, 'the process that rolled, at once');
    const deadline = Date.now() + 2_000;
    let status = await readsOn(second);
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await readsOn(second);
    }
    assert.equal(status, 401, 'the other process, within 2 s');
  });
});
