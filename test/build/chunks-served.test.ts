// The chunks beside the script as the gateway serves them: at /pay-checkout/<chunk>.js, byte for byte the built
// file, gzipped when taken, loadable from any origin and kept for good (their names carry a hash); nothing else
// from that folder or beside it. Builds the script first when it is missing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useBuilt, useTestGateway } from '../helpers/fixture.js';

describe('the chunks beside the script, served by the gateway', () => {
  const chunkDir = useBuilt('pay-checkout/');
  const gw = useTestGateway();

  it('serves every chunk and its source map as built, cached for good, CORS open', async () => {
    const files = readdirSync(chunkDir);
    assert.ok(files.some((f) => f.endsWith('.js')), 'the build made chunks');
    for (const file of files) {
      const response = await fetch(`${gw.url}/pay-checkout/${file}`);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type') ?? '', file.endsWith('.map') ? /^application\/json/ : /^text\/javascript/);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.match(response.headers.get('cache-control') ?? '', /immutable/);
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(readFileSync(`${chunkDir}${file}`)), `${file} is the built file`);
    }
  });

  it('answers 404 for a chunk that is not there and for any other name', async () => {
    for (const name of ['later-00000000.js', 'x.txt', '..%2Fpay-checkout.js', '.hidden.js']) {
      const response = await fetch(`${gw.url}/pay-checkout/${name}`);
      assert.equal(response.status, 404, name);
      await response.body?.cancel();
    }
  });
});
