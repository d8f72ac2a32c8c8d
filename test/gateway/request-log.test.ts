// A request that fails unexpectedly (a 500) is two log lines: the error with its stack, then the access line; both carry
// the request's id, so that an operator finds the stack of the 500 a client reports by its X-Request-Id. The running
// gateway's lines leave in batches, not a write each (src/sandbox/logging.ts).
// Store: any (nothing is stored), so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it, mock } from 'node:test';
import { configureLogging, log, requestLog } from '../../src/sandbox/logging.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

describe(`the log of a failed request (${storageName})`, () => {
  const gw = useTestGateway({ mount: (app) => app.get('/test/fault', () => Promise.reject(new Error('a fault no route expects'))) });

  it('gives the error line of a 500 the req_id of its access line, the caller\'s or its own', async () => {
    const error = mock.method(log, 'error', () => undefined);
    const info = mock.method(requestLog, 'info', () => undefined);
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

  it('writes the access lines of many requests in a few writes to stderr, every line whole', async () => {
    const REQUESTS = 200;
    const write = fs.write;
    const toStderr: string[] = [];
    const accessLines = () => toStderr.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; status: number }).filter((line) => line.msg === 'request');
    let allWritten!: () => void;
    const written = new Promise<void>((resolve) => (allWritten = resolve));
    // Kept, not printed: the test's own output stays readable. Other descriptors are written as they would be.
    mock.method(fs, 'write', (fd: number, buffer: string | Buffer, ...rest: unknown[]) => {
      if (fd !== 2) return (write as (...args: unknown[]) => void)(fd, buffer, ...rest);
      toStderr.push(String(buffer));
      if (accessLines().length >= REQUESTS) allWritten();
      process.nextTick(rest.at(-1) as (error: null, bytes: number) => void, null, Buffer.byteLength(buffer));
    });
    try {
      await configureLogging('info', 'json');
      for (let i = 0; i < REQUESTS; i++) await (await fetch(`${gw.url}/api/checkout/pl_none`)).arrayBuffer();
      log.flush();
      await written;
      assert.deepEqual(new Set(accessLines().map((line) => line.status)), new Set([404]));
      assert.equal(accessLines().length, REQUESTS);
      const writes = toStderr.filter(Boolean).length;
      assert.ok(writes <= REQUESTS / 10, `${REQUESTS} access lines took ${writes} writes`);
    } finally {
      mock.restoreAll();
    }
  });
});
