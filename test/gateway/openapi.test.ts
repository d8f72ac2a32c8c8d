// GET /openapi.json: an OpenAPI 3.1 document that a real validator accepts, naming the routes the gateway mounts
// (both from the declarations of src/sandbox/routes/), and the same routes as docs/api.md. That each route answers
// as declared is test/gateway/routes.test.ts.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { createApp } from '../../src/sandbox/app.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

type Document = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };

/** `METHOD /path` with every path parameter written `{}`, so that `{ref}` and `{payment_link_ref}` compare equal. */
const operation = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{\w+\}|:\w+/g, '{}')}`;

const operationsOf = (document: Document) => new Set(Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => operation(method, path))));

describe(`the OpenAPI document (${storageName})`, () => {
  const gw = useTestGateway();
  let document: Document;
  before(async () => {
    const response = await fetch(`${gw.url}/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    document = (await response.json()) as Document;
  });

  it('is OpenAPI 3.1 that @readme/openapi-parser validates, with this gateway as its server', async () => {
    assert.match(document.openapi, /^3\.1\./);
    assert.equal(document.servers[0]?.url, new URL(gw.url).origin);
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    assert.deepEqual(result, { valid: true, warnings: [], specification: 'OpenAPI' });
  });

  it('describes the routes the gateway mounts', () => {
    const mounted = new Set(
      createApp(gw.gateway)
        .routes.filter((r) => r.method !== 'ALL')
        .map((r) => operation(r.method, r.path)),
    );
    const described = operationsOf(document);
    assert.ok(mounted.size > 20, `${mounted.size} routes mounted`);
    assert.deepEqual([...mounted].filter((o) => !described.has(o)), [], 'mounted but not in /openapi.json');
    assert.deepEqual([...described].filter((o) => !mounted.has(o)), [], 'in /openapi.json but not mounted');
  });

  it('names the same operations and query parameters as docs/api.md', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const written = new Set([...doc.matchAll(/\b(GET|POST|DELETE|PUT|PATCH) `?(?:\{(?:base|auth)_url\})?(\/[^\s`?|,)]*)/g)].map(([, method, path]) => operation(method!, path!)));
    const described = operationsOf(document);
    assert.deepEqual([...described].filter((o) => !written.has(o)).sort(), [], 'in /openapi.json, missing from docs/api.md');
    assert.deepEqual([...written].filter((o) => !described.has(o)).sort(), [], 'in docs/api.md, missing from /openapi.json');
    const queries = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)));
    assert.deepEqual(queries.filter((name) => !doc.includes(`${name}=`)), [], 'query parameters docs/api.md never shows');
  });
});
