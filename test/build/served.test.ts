// The built element as the gateway serves it: compressed for browsers that take gzip, byte for byte the built
// file, loadable from any origin; the hosted page under its strict CSP. Builds the script first when it is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const bundle = fileURLToPath(new URL('../../dist/pay-checkout.js', import.meta.url));

describe('the element and the hosted page, served by the gateway', () => {
  let gw: TestGateway;
  before(async () => {
    if (!existsSync(bundle)) assert.equal(spawnSync('npx', ['vite', 'build'], { encoding: 'utf8' }).status, 0, 'vite build');
    gw = await startTestGateway();
  });
  after(() => gw.close());

  it('sends /pay-checkout.js gzipped to a browser that accepts it, and it is the built file', async () => {
    // fetch would decompress on its own: node:http shows the bytes as they travel.
    const { request } = await import('node:http');
    const answer = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(`${gw.url}/pay-checkout.js`, { headers: { 'Accept-Encoding': 'gzip, br' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.match(String(answer.headers['content-type']), /^text\/javascript/);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    const built = readFileSync(bundle);
    assert.ok(answer.body.length < built.length / 2, `${answer.body.length} B on the wire for ${built.length} B`);
    assert.ok(gunzipSync(answer.body).equals(built));
  });

  it('serves the hosted page with a strict CSP and the element in hosted layout', async () => {
    const response = await fetch(`${gw.url}/checkout?ref=pl_any`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), "default-src 'self'; img-src 'self' data: https:; connect-src 'self'");
    const page = await response.text();
    assert.match(page, /<script type="module" src="\/pay-checkout.js"><\/script>/);
    assert.match(page, /<pay-checkout embedded="false"><\/pay-checkout>/);
    assert.doesNotMatch(page, /<script>|<style>|style=/, 'nothing inline that the CSP would block');
  });
});
