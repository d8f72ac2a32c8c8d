// Wrong client secrets are counted per client id and per client address (docs/security.md, "Limits"): past either
// limit the token endpoint answers 429 with Retry-After, right secret or not, until the window ends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

describe(`wrong client secrets (${storageName})`, () => {
  const gw = useTestGateway({ config: { limits: { ...DEFAULT_LIMITS, failedSecretsPerClientId: 5, failedSecretsPerAddress: 8, failedSecretWindowSeconds: 60 } } });

  const token = async (clientId: string, clientSecret: string, basic = false) => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(basic ? {} : { client_id: clientId, client_secret: clientSecret }) });
    const response = await fetch(`${gw.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(basic && { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` }) },
      body: form,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type') };
  };

  it('throttles guesses at one client id, in the body or Basic, until the window ends, and then lets the real secret in', async () => {
    const { clientId, clientSecret } = gw.credentials;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await token(clientId, `guess-${i}`, i % 2 === 1)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
    const locked = await token(clientId, clientSecret);
    assert.equal(locked.status, 429, 'the right secret waits too, or the guesses would learn it');
    assert.equal(locked.type, 'application/problem+json');
    assert.ok(Number(locked.retryAfter) > 0 && Number(locked.retryAfter) <= 60);
    gw.clock.advance(61_000);
    assert.equal((await token(clientId, clientSecret)).status, 200);
  });

  it('throttles one address guessing over many client ids', async () => {
    gw.clock.advance(61_000);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await token(`client-${i}`, 'guess')).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
  });
});
