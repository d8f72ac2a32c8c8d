// A loopback proxy in front of a test gateway that fails on cue, for the SDK's retries: each request takes the
// next fault in the queue (or passes through when it is empty) and is logged with its Idempotency-Key.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** The connection is cut before the gateway sees the request. */
  | 'drop-before'
  /** The gateway handles the request in full; then the connection is cut before the answer reaches the client. */
  | 'drop-after'
  /** The gateway's answer is held back this long. */
  | { delayMs: number }
  /** The proxy answers this itself; the gateway never sees the request. */
  | { status: number; retryAfter?: string; body?: string };

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  at: number;
  fault: Fault | 'pass';
}

export interface FlakyProxy {
  url: string;
  /** Faults for the next requests, in order; requests whose path does not match `only` pass without taking one. */
  fail(faults: Fault[], only?: RegExp): void;
  log: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  let queue: Fault[] = [];
  let only: RegExp | undefined;
  const log: ProxiedRequest[] = [];
  const held = new Set<NodeJS.Timeout>();

  const pass = (req: IncomingMessage, body: Buffer, onAnswer: (status: number, headers: IncomingMessage['headers'], answer: Buffer) => void) => {
    const upstream = forward(new URL(req.url!, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => onAnswer(res.statusCode ?? 502, res.headers, Buffer.concat(chunks)));
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const takes = !only || only.test(req.url ?? '');
      const fault = (takes && queue.shift()) || 'pass';
      log.push({ method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, at: Date.now(), fault });
      const reply = (status: number, headers: IncomingMessage['headers'], answer: Buffer) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': headers['content-type'] ?? 'application/json', ...(headers['retry-after'] && { 'retry-after': headers['retry-after'] }), ...(headers['idempotent-replayed'] && { 'idempotent-replayed': headers['idempotent-replayed'] }) });
        res.end(answer);
      };
      if (fault === 'drop-before') return req.socket.destroy();
      if (fault === 'drop-after') return pass(req, body, () => req.socket.destroy());
      if (fault === 'pass') return pass(req, body, reply);
      if ('delayMs' in fault) {
        return pass(req, body, (...answer) => {
          const timer = setTimeout(() => {
            held.delete(timer);
            reply(...answer);
          }, fault.delayMs);
          held.add(timer);
        });
      }
      reply(fault.status, { 'content-type': 'application/problem+json', ...(fault.retryAfter && { 'retry-after': fault.retryAfter }) }, Buffer.from(fault.body ?? JSON.stringify({ title: 'Injected', status: fault.status, detail: 'injected by the test proxy' })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fail(faults, path) {
      queue = [...faults];
      only = path;
    },
    log,
    async close() {
      for (const timer of held) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
