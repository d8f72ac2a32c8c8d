// A merchant's webhook endpoint on loopback that stamps each delivery on arrival (test/helpers/receiver.ts
// checks what arrives; this one times it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '../../src/contract/index.js';

export interface Arrival {
  event: WebhookEvent;
  /** performance.now() in the bench process, comparable with SSE arrival stamps (+ performance.timeOrigin: wall time). */
  at: number;
}

export interface TimedReceiver {
  url: string;
  /** First arrival of each event id. */
  arrivals: Map<string, Arrival>;
  /** Deliveries of an event id already seen (at least once allows them; they are counted, not timed). */
  duplicates(): number;
  /** Arrivals of distinct events matching. */
  matching(match: (event: WebhookEvent) => boolean): Arrival[];
  close(): Promise<void>;
}

export async function startTimedReceiver(): Promise<TimedReceiver> {
  const arrivals = new Map<string, Arrival>();
  let duplicates = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookEvent;
      if (arrivals.has(event.id)) duplicates++;
      else arrivals.set(event.id, { event, at });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    arrivals,
    duplicates: () => duplicates,
    matching: (match) => [...arrivals.values()].filter((a) => match(a.event)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
