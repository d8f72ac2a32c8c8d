// A file of the build (dist/), served as it is on disk. It is read, gzipped and hashed once per version (its size and
// modification time): a rebuild shows without a restart, and a request costs a stat, not a read and a gzip. Its
// ETag lets a browser whose cached copy is stale ask again and get 304 when nothing changed.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback, constants } from 'node:zlib';
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { ProblemError, problemResponse } from './problem.js';

const gzip = promisify(gzipCallback);

interface Version {
  identity: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  /** Strong validators, one per encoding: the two are different bytes. */
  etag: { identity: string; gzip: string };
}

/** Whether If-None-Match names `etag` (weak comparison, RFC 9110, section 13.1.2), or is `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** A handler that serves `file` with `headers`, gzipped to clients that take it; 503 with a hint while it is not built. */
export function builtFile(file: URL, headers: Record<string, string>): (c: Context) => Promise<Response> {
  let current: Promise<Version> | undefined;
  let currentKey = '';

  async function load(): Promise<Version> {
    const identity = new Uint8Array(await readFile(file));
    const gzipped = new Uint8Array(await gzip(identity, { level: constants.Z_BEST_COMPRESSION }));
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    return { identity, gzipped, etag: { identity: `"${hash}"`, gzip: `"${hash}-gzip"` } };
  }

  async function version(): Promise<Version | undefined> {
    const stats = await stat(file).catch(() => undefined);
    if (!stats) return undefined;
    const key = `${stats.size}:${stats.mtimeMs}`;
    // One read per version, shared by the requests that come while it is read.
    if (key !== currentKey || !current) {
      currentKey = key;
      current = load();
      current.catch(() => (currentKey = ''));
    }
    return current.catch(() => undefined);
  }

  return async (c) => {
    const found = await version();
    if (!found) return problemResponse(c, new ProblemError(503, 'The checkout script is not built yet: run npm run build.'));
    // The client's preference by q-value; no header, or no acceptable gzip: the file as it is.
    const gzipped = accepts(c, { header: 'Accept-Encoding', supports: ['gzip', 'identity'], default: 'identity' }) === 'gzip';
    const etag = gzipped ? found.etag.gzip : found.etag.identity;
    const common = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
    const ifNoneMatch = c.req.header('If-None-Match');
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) return c.body(null, 304, common);
    return c.body(gzipped ? found.gzipped : found.identity, 200, gzipped ? { ...common, 'Content-Encoding': 'gzip' } : common);
  };
}
