// A merchant's webhook receiver on loopback: records what arrives, and can be told to fail.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  body: string;
  signature: string;
  eventId: string;
}

export type ReceiverMode = 'ok' | 'error' | 'hang';

export async function startReceiver() {
  const received: Received[] = [];
  let mode: ReceiverMode = 'ok';
  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          if (mode === 'hang') return; // never answers: the gateway's timeout must end the attempt
          if (mode === 'error') return void response.writeHead(500).end('down for maintenance');
          received.push({
            body: Buffer.concat(chunks).toString('utf8'),
            signature: String(request.headers['pay-checkout-signature'] ?? ''),
            eventId: String(request.headers['pay-checkout-event-id'] ?? ''),
          });
          response.writeHead(200).end('ok');
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    received,
    get url() {
      return `http://localhost:${port}/webhooks`;
    },
    setMode(next: ReceiverMode) {
      mode = next;
    },
    /** Stops listening, so deliveries are refused, until start() again on the same port. */
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
    start: listen,
    types: () => received.map((r) => (JSON.parse(r.body) as { type: string }).type),
  };
}
