// A body that trickles in is answered 408 once the request's 10 s are up (not held for Node's 300 s), and a client
// that drops mid-upload is one info line in the logs, not an internal error with a stack trace.
// Store: any. Its gateway processes are given no DATABASE_URL: PGlite in either pass, so it runs in the PGlite pass only.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';

describe('slow and aborted bodies', () => {
  let gateway: GatewayProcess;
  before(async () => {
    gateway = await startGatewayProcess({ LOG_LEVEL: 'info' }, { captureLogs: true });
  });
  after(() => gateway?.kill());

  /** Sends headers and part of a body, then waits for the server to close (or closes first, `abortAfterMs` later). */
  const partly = (abortAfterMs?: number) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(gateway.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('POST /api/checkout/pl_x/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"asset":');
        if (abortAfterMs !== undefined) setTimeout(() => socket.destroy(), abortAfterMs);
      });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  // First: the 408 below also leaves a line when its route gives up on the body.
  it('logs a client that drops mid-upload as one info line, with no error and no stack', async () => {
    // At once, before the route reads the body, and later, while it waits for the rest: each is its own error in Node.
    const delays = [0, 1, 10, 50, 200, 0, 1, 10, 50, 200];
    for (const ms of delays) await partly(ms);
    const lines = () => gateway.logEntries();
    const aborted = () => lines().filter((l) => l.msg === 'client aborted the request body').length;
    // The process writes its logs on its own time: read until they are all there (a loaded machine is slow to write).
    for (const deadline = Date.now() + 20_000; aborted() < delays.length && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(aborted(), delays.length);
    assert.deepEqual(lines().filter((l) => l.err !== undefined || l.msg === 'request failed'), []);
  });

  it('answers a body still arriving after the request time with a 408 problem', async () => {
    const answer = await partly();
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /application\/problem\+json/);
  });
});
