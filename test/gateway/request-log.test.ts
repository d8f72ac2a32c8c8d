// A request that fails unexpectedly (a 500) is two log lines: the error with its stack, then the access line; both carry
// the request's id, so that an operator finds the stack of the 500 a client reports by its X-Request-Id.
// Store: any (nothing is stored), so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { log } from '../../src/sandbox/logging.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

describe(`the log of a failed request (${storageName})`, () => {
  const gw = useTestGateway({ mount: (app) => app.get('/test/fault', () => Promise.reject(new Error('a fault no route expects'))) });

  it('gives the error line of a 500 the req_id of its access line, the caller\'s or its own', async () => {
    const error = mock.method(log, 'error', () => undefined);
    const info = mock.method(log, 'info', () => undefined);
    try {
      for (const given of ['client-req-7', undefined]) {
        error.mock.resetCalls();
        info.mock.resetCalls();
        const response = await fetch(`${gw.url}/test/fault`, { headers: given ? { 'X-Request-Id': given } : {} });
        assert.equal(response.status, 500);
        await response.arrayBuffer();
        const id = response.headers.get('X-Request-Id')!;
        if (given) assert.equal(id, given);
        const failed = error.mock.calls.map((call) => call.arguments as unknown[]).filter(([, msg]) => msg === 'request failed');
        const access = info.mock.calls.map((call) => call.arguments as unknown[]).filter(([, msg]) => msg === 'request');
        assert.equal(failed.length, 1);
        assert.equal(access.length, 1);
        const [errorLine, accessLine] = [failed[0]![0], access[0]![0]] as { req_id?: string; status?: number; err?: Error }[];
        assert.equal(accessLine!.status, 500);
        assert.equal(accessLine!.req_id, id);
        assert.equal(errorLine!.req_id, id);
        assert.match(errorLine!.err!.stack!, /a fault no route expects/);
      }
    } finally {
      error.mock.restore();
      info.mock.restore();
    }
  });
});
