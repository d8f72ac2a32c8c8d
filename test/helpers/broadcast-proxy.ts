// A loopback proxy in front of a node that stops a payout's broadcast where a crash would (payout-crash.pglite.test.ts
// on an EVM node, tron-payouts.test.ts on TRON's HTTP API): `hold` neither forwards nor answers it (the gateway dies
// before the node has it); `kill-after` forwards it and never answers (the node has it, the gateway never hears back).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGatewayProcess, type GatewayProcess } from './process.js';

export type BroadcastMode = 'pass' | 'hold' | 'kill-after';

export interface BroadcastProxy {
  url: string;
  /** Resolves when a broadcast reaches the proxy in this mode. */
  next(mode: BroadcastMode): Promise<void>;
  pass(): void;
  close(): Promise<void>;
}

/** Where a crash test kills the gateway in a payout's broadcast, and how it names the moment. */
export const crashPoints = [
  ['hold', 'after signing, before the node got the transaction'],
  ['kill-after', 'after the node took the transaction, before the gateway heard back'],
] as const satisfies readonly (readonly [BroadcastMode, string])[];

/**
 * Kills `gateway` when the broadcast that `work` leads to reaches the proxy in `mode`, then starts a gateway again on
 * the same `env`: what `work` returned, and the new gateway.
 */
export async function killedAt<T>(proxy: BroadcastProxy, mode: BroadcastMode, gateway: GatewayProcess, env: Record<string, string>, work: () => Promise<T>) {
  const broadcast = proxy.next(mode);
  const result = await work();
  await broadcast;
  await gateway.kill();
  proxy.pass();
  return { result, gateway: await startGatewayProcess(env) };
}

/** Forwards every request to `target` (its path kept), with its content type and TRON's API key; `isBroadcast` tells a broadcast. */
export async function broadcastProxy(target: string, isBroadcast: (path: string, body: string) => boolean): Promise<BroadcastProxy> {
  let mode: BroadcastMode = 'pass';
  let onBroadcast: (() => void) | undefined;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const broadcast = isBroadcast(req.url ?? '/', body);
      if (broadcast && mode === 'hold') return onBroadcast?.();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (req.headers['tron-pro-api-key']) headers['TRON-PRO-API-KEY'] = String(req.headers['tron-pro-api-key']);
      const answer = await fetch(new URL(req.url ?? '/', target), { method: 'POST', headers, body });
      const text = await answer.text();
      if (broadcast && mode === 'kill-after') return onBroadcast?.();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next(next) {
      mode = next;
      return new Promise((resolve) => (onBroadcast = resolve));
    },
    pass() {
      mode = 'pass';
      onBroadcast = undefined;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
