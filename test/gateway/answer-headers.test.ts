// The checkout view, the route every open checkout polls, goes out with its headers as one plain object: no web
// Headers object is written for it (src/sandbox/http/response-header.ts), and it still carries every header it did.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { before, describe, it, mock } from 'node:test';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

/** A GET through node:http, which makes no Headers object of its own (fetch would). */
function get(url: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * How many header fields `work` wrote into Headers objects. Counted on the prototype's methods, not by replacing the
 * constructor: @hono/node-server reads a request's headers without a Headers object only while the global one is its own.
 */
async function headerWritesDuring<T>(work: () => Promise<T>): Promise<{ writes: number; result: T }> {
  const set = mock.method(Headers.prototype, 'set');
  const append = mock.method(Headers.prototype, 'append');
  try {
    const result = await work();
    return { writes: set.mock.callCount() + append.mock.callCount(), result };
  } finally {
    set.mock.restore();
    append.mock.restore();
  }
}

describe(`the checkout view's headers (${storageName})`, () => {
  const gw = useTestGateway();
  let ref: string;
  before(async () => {
    ref = (await gw.client.createPaymentLink(sampleLink())).payment_link_ref;
    await get(`${gw.url}/api/checkout/${ref}`);
  });

  for (const [what, path, status, type] of [
    ['a view', () => `/api/checkout/${ref}`, 200, 'application/json'],
    ['an unknown link', () => '/api/checkout/pl_none', 404, 'application/problem+json'],
  ] as const) {
    it(`answers ${what} with its headers and no Headers object`, async () => {
      const { writes, result } = await headerWritesDuring(async () => {
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await get(`${gw.url}${path()}`));
        return answers;
      });
      for (const answer of result) {
        assert.equal(answer.status, status, answer.body);
        assert.equal(answer.headers['content-type'], type);
        assert.equal(answer.headers['access-control-allow-origin'], '*');
        assert.match(String(answer.headers['x-request-id']), /^[\w-]{36}$/);
        assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body));
        if (status === 200) {
          assert.equal(answer.headers['cache-control'], 'no-store');
          assert.equal((JSON.parse(answer.body) as { payment_link_ref: string }).payment_link_ref, ref);
        }
      }
      assert.equal(writes, 0, `${result.length} answers wrote ${writes} fields into Headers objects`);
    });
  }
});
