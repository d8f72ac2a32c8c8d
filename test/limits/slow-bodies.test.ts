// A body that trickles in is answered 408 once the request's 10 s are up (not held for Node's 300 s), and a client
// that drops mid-upload is one info line in the logs, not an internal error with a stack trace.
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

  /** Sends headers and part of a body, then waits for the server to close (or closes first when `abort`). */
  const partly = (abort: boolean) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(gateway.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('POST /api/checkout/pl_x/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"asset":');
        if (abort) setTimeout(() => socket.destroy(), 200);
      });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  it('answers a body still arriving after the request time with a 408 problem', async () => {
    const answer = await partly(false);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /application\/problem\+json/);
  });

  it('logs a client that drops mid-upload as one info line, with no error and no stack', async () => {
    for (let i = 0; i < 5; i++) await partly(true);
    const lines = () => gateway.logs().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number | string; msg: string; err?: unknown });
    const aborted = () => lines().filter((l) => l.msg === 'client aborted the request body').length;
    // The process writes its logs on its own time: read until the five are there (a loaded machine is slow to write).
    for (const deadline = Date.now() + 20_000; aborted() < 5 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(aborted(), 5);
    assert.deepEqual(lines().filter((l) => l.err !== undefined || l.msg === 'request failed'), []);
  });
});
