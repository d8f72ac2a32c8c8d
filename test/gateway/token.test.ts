// POST {auth_url}/api/v2/oauth/token: the client-credentials grant (the integration document's sample, RFC 6749 4.4), errors in RFC 6749 5.2 form.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { TokenError } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';
import { FORM, send, type Answer } from '../helpers/merchant-api.js';

describe(`token endpoint (${storageName})`, () => {
  const gw = useTestGateway();

  const token = (body: string | URLSearchParams, headers: Record<string, string> = FORM) =>
    send<Record<string, unknown>>(gw.url, 'POST', '/api/v2/oauth/token', { body, headers });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);
  const credentialsForm = (extra: Record<string, string> = {}) =>
    form({ client_id: gw.credentials.clientId, client_secret: gw.credentials.clientSecret, grant_type: 'client_credentials', ...extra });
  /** RFC 7617 with the RFC 6749 2.3.1 twist: id and secret are each form-encoded before they are joined. */
  const basic = (id: string, secret: string) => {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
  };

  function assertIssued(answer: Answer<Record<string, unknown>>) {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(answer.body.token_type, 'bearer');
    assert.equal(answer.body.expires_in, 3600);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    return answer.body.access_token as string;
  }

  function assertOAuthError(answer: Answer<Record<string, unknown>>, status: number, error: string) {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.ok(TokenError.safeParse(answer.body).success, JSON.stringify(answer.body));
    assert.equal(answer.body.error, error);
    assert.equal(typeof answer.body.error_description, 'string');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
  }

  it('issues an opaque bearer token for credentials in the form body, stored only as a hash', async () => {
    const first = assertIssued(await token(credentialsForm()));
    const second = assertIssued(await token(credentialsForm()));
    assert.notEqual(first, second);
    // Opaque: 32 random bytes, nothing of the merchant in it.
    assert.match(first, /^test_at_[A-Za-z0-9_-]{43}$/);
    assert.ok(!first.includes(gw.credentials.clientId));
    const stored = await gw.gateway.db.query<{ token_hash: string }>('SELECT token_hash FROM access_tokens');
    assert.ok(stored.every((row) => row.token_hash !== first && row.token_hash !== second));
    assert.ok(stored.some((row) => row.token_hash === createHash('sha256').update(first).digest('hex')));
  });

  it('takes the empty Authorization header of the integration document’s sample as "credentials are in the body"', async () => {
    assertIssued(await token(credentialsForm(), { ...FORM, Authorization: '' }));
  });

  it('takes HTTP Basic client authentication, each part form-encoded as RFC 6749 2.3.1 says', async () => {
    assertIssued(await token(form({ grant_type: 'client_credentials' }), { ...FORM, Authorization: basic(gw.credentials.clientId, gw.credentials.clientSecret) }));
    // An id and a secret with the characters that form-encoding changes: ":" "%" "+" " " and non-ASCII.
    const odd = { name: 'Cửa hàng: 100% + thêm', clientId: 'shop:ü 1+2', clientSecret: 'p@ss:w%rd +ñ/=', merchantKey: 'key_odd_credentials' };
    await gw.gateway.merchants.upsert(odd);
    assertIssued(await token(form({ grant_type: 'client_credentials' }), { ...FORM, Authorization: basic(odd.clientId, odd.clientSecret) }));
    // Sent raw rather than form-encoded, the "%" of the secret is a broken escape: refused, not guessed at.
    const raw = `Basic ${Buffer.from(`${odd.clientId}:${odd.clientSecret}`).toString('base64')}`;
    assertOAuthError(await token(form({ grant_type: 'client_credentials' }), { ...FORM, Authorization: raw }), 401, 'invalid_client');
  });

  it('answers a wrong secret with 401 invalid_client, and with a Basic challenge when Basic was used', async () => {
    const inBody = await token(credentialsForm({ client_secret: 'wrong' }));
    assertOAuthError(inBody, 401, 'invalid_client');
    assert.equal(inBody.headers.get('www-authenticate'), null);
    const inHeader = await token(form({ grant_type: 'client_credentials' }), { ...FORM, Authorization: basic(gw.credentials.clientId, 'wrong') });
    assertOAuthError(inHeader, 401, 'invalid_client');
    assert.match(inHeader.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    assertOAuthError(await token(credentialsForm({ client_id: 'nobody' })), 401, 'invalid_client');
    assertOAuthError(await token(form({ grant_type: 'client_credentials', client_id: gw.credentials.clientId })), 401, 'invalid_client');
    assertOAuthError(await token(credentialsForm({ client_id: 'a\u0000b' })), 401, 'invalid_client');
  });

  it('refuses Basic credentials that are not client_id:client_secret, and credentials sent twice that differ', async () => {
    assertOAuthError(await token(form({ grant_type: 'client_credentials' }), { ...FORM, Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }), 401, 'invalid_client');
    const both = await token(credentialsForm({ client_secret: 'other' }), { ...FORM, Authorization: basic(gw.credentials.clientId, gw.credentials.clientSecret) });
    assertOAuthError(both, 400, 'invalid_request');
  });

  it('answers a missing grant_type with invalid_request and another grant with unsupported_grant_type', async () => {
    const { grant_type: _grant, ...withoutGrant } = Object.fromEntries(credentialsForm());
    assertOAuthError(await token(form(withoutGrant)), 400, 'invalid_request');
    assertOAuthError(await token(credentialsForm({ grant_type: '' })), 400, 'invalid_request');
    for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      assertOAuthError(await token(credentialsForm({ grant_type: grant })), 400, 'unsupported_grant_type');
    }
    const repeated = `${credentialsForm()}&grant_type=client_credentials`;
    assertOAuthError(await token(repeated), 400, 'invalid_request');
  });

  it('refuses a JSON body (or none) with invalid_request saying the form is needed', async () => {
    const json = await token(JSON.stringify(Object.fromEntries(credentialsForm())), { 'Content-Type': 'application/json' });
    assertOAuthError(json, 400, 'invalid_request');
    assert.match(String(json.body.error_description), /application\/x-www-form-urlencoded/);
    assertOAuthError(await token(credentialsForm().toString(), {}), 400, 'invalid_request');
    assertOAuthError(await token('', FORM), 400, 'invalid_request');
  });

  it('stores nothing for a refused request', async () => {
    const before = await gw.gateway.db.query<{ n: number }>('SELECT count(*)::int AS n FROM access_tokens');
    await token(credentialsForm({ client_secret: 'wrong' }));
    await token(credentialsForm({ grant_type: 'password' }));
    assert.deepEqual(await gw.gateway.db.query('SELECT count(*)::int AS n FROM access_tokens'), before);
  });

  it('opens the merchant API until the token expires, then answers 401', async () => {
    const issued = assertIssued(await token(credentialsForm()));
    const list = () => send(gw.url, 'GET', '/api/paymentLink', { headers: { Authorization: `Bearer ${issued}` } });
    assert.equal((await list()).status, 200);
    gw.clock.advance(3_599_000);
    assert.equal((await list()).status, 200, 'a second before it expires');
    gw.clock.advance(1_000);
    const refused = await list();
    assert.equal(refused.status, 401, 'at its expiry');
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer/);
  });
});
