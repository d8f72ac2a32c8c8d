// TRON's JSON-RPC client (chains/tron/json-rpc.ts) against a provider of the test's own on loopback: every way a
// provider throttles (403, 429, 503, a 200 whose body is {"Error": …}, a body that is no JSON-RPC answer) is a
// refusal after which the client waits, doubling, up to about 5 s, before it calls again; a JSON-RPC error is the
// node's answer, not a refusal; an answer over its bound or out of time is never believed.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MAX_BACKOFF_MS, TronJsonRpc, TronProviderError, TronRpcError } from '../../src/sandbox/chains/tron/json-rpc.js';

type Answer = (body: { id: number; method: string }, req: IncomingMessage, res: ServerResponse) => void;

describe('TRON JSON-RPC client', () => {
  let answer: Answer;
  const calls: { method: string; key: string | undefined }[] = [];
  let url: string;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { id: number; method: string };
      calls.push({ method: body.method, key: req.headers['tron-pro-api-key'] as string | undefined });
      answer(body, req, res);
    });
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonrpc`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const ok: Answer = (body, _req, res) => json(res, 200, { jsonrpc: '2.0', id: body.id, result: '0xcd8690dc' });
  const client = (backoffMs = 50) => new TronJsonRpc({ url, timeoutMs: 500, backoffMs, apiKey: 'the-key' });

  it('answers the result, sending the key as TRON-PRO-API-KEY', async () => {
    answer = ok;
    calls.splice(0);
    assert.equal(await client().call('eth_chainId', []), '0xcd8690dc');
    assert.deepEqual(calls, [{ method: 'eth_chainId', key: 'the-key' }]);
  });

  const refusals: [string, Answer][] = [
    ['HTTP 403', (_b, _q, res) => json(res, 403, { Error: 'forbidden' })],
    ['HTTP 429', (_b, _q, res) => json(res, 429, { Error: 'too many requests' })],
    ['HTTP 503', (_b, _q, res) => res.writeHead(503).end('Service Unavailable')],
    ['a 200 whose body is {"Error": …}', (_b, _q, res) => json(res, 200, { Error: 'The key exceeds the frequency limit(15), and the query server is suspended for 30s' })],
    ['a 200 that is not JSON', (_b, _q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>rate limited</html>')],
    ['a 200 that is another call’s answer', (body, _q, res) => json(res, 200, { jsonrpc: '2.0', id: body.id + 1, result: '0x1' })],
  ];
  for (const [what, refuse] of refusals) {
    it(`takes ${what} for throttling, and waits before it calls again`, async () => {
      answer = refuse;
      const rpc = client(100);
      const first = await rpc.call('eth_blockNumber', []).catch((error: unknown) => error);
      assert.ok(first instanceof TronProviderError && first.throttled, String(first));
      calls.splice(0);
      answer = ok;
      await assert.rejects(rpc.call('eth_blockNumber', []), (error: unknown) => error instanceof TronProviderError && error.waitMs! > 0 && error.message === first.message, 'the same refusal, said again while it waits');
      assert.equal(calls.length, 0, 'no call while it backs off');
      const deadline = Date.now() + 2_000;
      let result: unknown;
      while (result === undefined && Date.now() < deadline) result = await rpc.call('eth_chainId', []).catch(() => undefined);
      assert.equal(result, '0xcd8690dc', 'answers again once its wait is over');
      assert.equal(calls.length, 1, 'one call after the wait');
    });
  }

  it('doubles its wait on each further refusal, to at most about 5 s', async () => {
    answer = (_b, _q, res) => json(res, 429, {});
    const rpc = client(1_000);
    const waits: number[] = [];
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      for (let i = 0; i < 6; i++) {
        await assert.rejects(rpc.call('eth_blockNumber', []), TronProviderError);
        const wait = await rpc.call('eth_blockNumber', []).then(
          () => undefined,
          (error: TronProviderError) => error.waitMs,
        );
        waits.push(wait!);
        now += MAX_BACKOFF_MS + 1;
      }
    } finally {
      Date.now = realNow;
    }
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('takes a JSON-RPC error for the node’s answer, not for throttling, and calls again at once', async () => {
    answer = (body, _q, res) => json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'the method eth_sendRawTransaction does not exist/is not available', data: '{}' } });
    const rpc = client();
    await assert.rejects(rpc.call('eth_sendRawTransaction', ['0x00']), (error: unknown) => error instanceof TronRpcError && error.code === -32601);
    calls.splice(0);
    answer = ok;
    assert.equal(await rpc.call('eth_chainId', []), '0xcd8690dc');
  });

  it('never believes an answer that does not come in time', async () => {
    answer = () => undefined; // never answers
    await assert.rejects(client().call('eth_blockNumber', []), /no answer to eth_blockNumber in 500 ms/);
  });
});
