// A file of the build as the gateway serves it (src/sandbox/http/built-file.ts): gzipped to clients that take it,
// as it is to those that do not, revalidated with 304 by its ETag, a rebuild served without a restart, 503 while it
// is missing. Against a file of the test's own, so it can be rebuilt under the gateway.
import assert from 'node:assert/strict';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { builtFile } from '../../src/sandbox/http/built-file.js';

describe('a built file, served', () => {
  let dir: string;
  let path: string;
  let app: Hono;
  const get = async (headers: Record<string, string> = {}) => {
    const response = await app.request('/file.js', { headers });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  /** A rebuild: new content, and a modification time the stat can tell from the last one's. */
  const build = async (text: string, at: number) => {
    await writeFile(path, text);
    await utimes(path, at, at);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'built-file-'));
    path = join(dir, 'file.js');
    app = new Hono().get('/file.js', builtFile(pathToFileURL(path), { 'Content-Type': 'text/javascript' }));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('answers 503 with a hint while the file is not built', async () => {
    const { response, bytes } = await get();
    assert.equal(response.status, 503);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.match(bytes.toString(), /npm run build/);
  });

  it('gzips for clients that take it, and sends it as it is to the others', async () => {
    const text = 'export const a = 1;\n'.repeat(200);
    await build(text, 1_000);
    const zipped = await get({ 'Accept-Encoding': 'gzip, br' });
    assert.equal(zipped.response.headers.get('content-encoding'), 'gzip');
    assert.equal(zipped.response.headers.get('vary'), 'Accept-Encoding');
    assert.equal(gunzipSync(zipped.bytes).toString(), text);
    for (const acceptEncoding of [undefined, 'br', 'gzip;q=0', 'br, identity', 'gzip;q=0.1, identity']) {
      const plain = await get(acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding });
      assert.equal(plain.response.headers.get('content-encoding'), null, String(acceptEncoding));
      assert.equal(plain.bytes.toString(), text);
    }
  });

  it('revalidates a cached copy by its ETag: 304 while it is the same, 200 with the new file after a rebuild', async () => {
    await build('export const b = 1;\n', 2_000);
    const first = await get({ 'Accept-Encoding': 'gzip' });
    const etag = first.response.headers.get('etag');
    assert.match(etag ?? '', /^"[^"]+"$/);
    const same = await get({ 'Accept-Encoding': 'gzip', 'If-None-Match': etag! });
    assert.equal(same.response.status, 304);
    assert.equal(same.bytes.length, 0);
    assert.equal(same.response.headers.get('etag'), etag);
    // The other encoding is other bytes: its validator differs.
    assert.notEqual((await get()).response.headers.get('etag'), etag);

    await build('export const b = 2;\n', 3_000);
    const rebuilt = await get({ 'Accept-Encoding': 'gzip', 'If-None-Match': etag! });
    assert.equal(rebuilt.response.status, 200);
    assert.equal(gunzipSync(rebuilt.bytes).toString(), 'export const b = 2;\n');
    assert.notEqual(rebuilt.response.headers.get('etag'), etag);
  });
});
