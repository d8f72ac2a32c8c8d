// Event streams: how many one gateway process holds, what each costs in memory beside a bare node:http event stream
// (bench/servers/floor.ts), and how soon a wallet transfer reaches the customer's page while they are all open.
// Raw HTTP streams rather than EventSource objects keep the bench's own side light; a client counts once its first
// bytes have arrived.
import { get, type ClientRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fmt, round, summarize, type Cell, type Table } from '../lib/report.js';
import { NO_ROUTE, probeWhile } from '../lib/probe.js';
import { inBatches, openPayment, payInFull, poll, sandboxMerchant, timeTransfers, type OpenPayment } from '../lib/gateway-client.js';
import { startServer, type ServerProcess } from '../lib/server-process.js';
import type { Database } from '../lib/storage.js';
import { forEachStorage, gatewaySuite, withGateway } from '../lib/suite.js';

const STEPS = [1_000, 5_000, 10_000];
/** Clients are spread over this many links (each with an open payment), like many checkout pages. */
const LINKS = 50;
/** Payments paid one at a time while every stream is open, each on a link of its own with one EventSource. */
const TIMED_TRANSFERS = 100;
const OPEN_CONCURRENCY = 100;
const CONNECT_TIMEOUT_MS = 15_000;
/** Per server, for opening every step. */
const OPEN_BUDGET_MS = 180_000;
const TRANSFER_BUDGET_MS = 90_000;
const SETTLE_MS = 1_000;
/** How long to wait for the heap to drop back after the streams close, and how close to the start counts as back. */
const RELEASE_WAIT_MS = 15_000;
const RELEASED_WITHIN_KB = 8 * 1024;
/** File descriptors the bench keeps for itself beyond its streams. */
const FD_MARGIN = 200;
const HEAP_TARGET_KB = 10;
const P99_TARGET_MS = 250;
const FLOOR = 'floor (bare node:http)';

interface StreamClient {
  request: ClientRequest;
  link: number;
  /** Whether a confirming payment has come down this stream. */
  sawConfirming: boolean;
}

interface Held {
  clients: StreamClient[];
  baseRss: number;
  baseHeap: number;
  /** Heap KB per client at the last step. */
  heapPerClient: number;
  rssPerClient: number;
}

function ownFdLimit(): number {
  return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? NaN);
}

/** Opens one stream; resolves once its first bytes arrived. */
function connect(url: string, link: number, onConfirming: () => void): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const client: StreamClient = { request: undefined as unknown as ClientRequest, link, sawConfirming: false };
    const timer = setTimeout(() => {
      client.request.destroy();
      reject(new Error('no first bytes in time'));
    }, CONNECT_TIMEOUT_MS);
    client.request = get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        clearTimeout(timer);
        response.resume();
        reject(new Error(`answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      response.once('data', () => {
        clearTimeout(timer);
        resolve(client);
      });
      response.on('data', (chunk: string) => {
        if (!client.sawConfirming && chunk.includes('"status":"confirming"')) {
          client.sawConfirming = true;
          onConfirming();
        }
      });
    });
    client.request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Opens streams to `server` in steps (stream i at `streamUrl(i % LINKS)`), a row of `table` per step: RSS and the
 * heap after a full GC, per client over the figures before the first. The clients stay open for the caller.
 */
async function holdStreams(
  server: ServerProcess,
  label: string,
  steps: readonly number[],
  streamUrl: (link: number) => string,
  table: Table,
  notes: string[],
  extra: { database?: Database; onConfirming?: () => void } = {},
): Promise<Held> {
  const connections = async (): Promise<Cell> => (await extra.database?.connections()) ?? '—';
  const baseRss = server.rssKb();
  const baseHeap = (await server.memory()).heapUsed / 1024;
  table.rows.push([label, 0, 0, '—', '—', round(baseRss / 1024), '—', round(baseHeap / 1024), '—', await connections(), round(loadavg()[0]!)]);
  const held: Held = { clients: [], baseRss, baseHeap, heapPerClient: NaN, rssPerClient: NaN };
  let failed = 0;
  const firstError = new Set<string>();
  const deadline = Date.now() + OPEN_BUDGET_MS;
  for (const step of steps) {
    const load = loadavg()[0]!;
    const t0 = performance.now();
    const wanted = Array.from({ length: step - held.clients.length - failed }, (_, i) => (held.clients.length + failed + i) % LINKS);
    let opening = true;
    const probes = probeWhile(`${server.url}${NO_ROUTE}`, () => opening);
    await inBatches(wanted, OPEN_CONCURRENCY, async (link) => {
      if (Date.now() > deadline) return;
      try {
        held.clients.push(await connect(streamUrl(link), link, extra.onConfirming ?? (() => undefined)));
      } catch (error) {
        failed++;
        if (firstError.size < 3) firstError.add((error as Error).message);
      }
    });
    const openSeconds = (performance.now() - t0) / 1000;
    opening = false;
    const stall = summarize((await probes).times).max;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rss = server.rssKb();
    const heap = (await server.memory()).heapUsed / 1024;
    held.rssPerClient = (rss - baseRss) / held.clients.length;
    held.heapPerClient = (heap - baseHeap) / held.clients.length;
    table.rows.push([
      label,
      held.clients.length,
      failed,
      round(openSeconds),
      round(stall, 0),
      round(rss / 1024),
      round(held.rssPerClient),
      round(heap / 1024),
      round(held.heapPerClient),
      await connections(),
      round(load),
    ]);
    if (Date.now() > deadline) {
      notes.push(`${label}: the ${OPEN_BUDGET_MS / 1000} s budget ran out at ${held.clients.length} clients.`);
      break;
    }
  }
  if (failed) notes.push(`${label}: ${failed} streams failed to open (${[...firstError].join('; ')}).`);
  return held;
}

export const sseCapacitySuite = gatewaySuite({
  id: 'sse-capacity',
  title: 'Event streams per gateway process, beside a bare node:http stream',
  async run({ storages }, notes) {
    const limit = ownFdLimit();
    const steps = STEPS.filter((n) => n + FD_MARGIN <= limit);
    if (steps.length < STEPS.length) notes.push(`The bench's own limit of open files is ${limit}: steps above ${limit - FD_MARGIN} clients left out (raise \`ulimit -n\`).`);
    const most = steps.at(-1) ?? 0;
    const table: Table = {
      title: `Event streams: raw streams in steps over ${LINKS} links, RSS from /proc/<pid>/status, heap after a full GC`,
      columns: ['server', 'clients held', 'failed', 'open s', '404 max ms', 'RSS MB', 'RSS KB/client', 'heap MB', 'heap KB/client', 'DB conns', 'load'],
      rows: [],
    };
    const targets: Table = {
      title: `With ${most.toLocaleString('en-US')} streams open: heap per stream against the floor's, and ${TIMED_TRANSFERS} wallet transfers → \`event: payment\` at the client (each on a link of its own)`,
      columns: ['storage', 'streams', 'heap KB each', 'floor KB each', '× floor', `≤ ${HEAP_TARGET_KB} KB`, 'RSS KB each', 'floor RSS KB', 'transfers', 'p50 ms', 'p99 ms', `p99 < ${P99_TARGET_MS}`, 'load'],
      rows: [],
    };
    const fanout: Table = {
      title: 'Fan-out at the last step: one transfer, time until every client of that link has the confirming event',
      columns: ['storage', 'clients on the link', 'all heard ms'],
      rows: [],
    };

    const floorServer = await startServer('floor');
    let floor: Held;
    try {
      if (floorServer.fdLimit() < most + FD_MARGIN) notes.push(`The floor's limit of open files is ${floorServer.fdLimit()}.`);
      floor = await holdStreams(floorServer, FLOOR, steps, () => `${floorServer.url}/events`, table, notes);
      for (const client of floor.clients) client.request.destroy();
    } finally {
      await floorServer.stop();
    }

    await forEachStorage(storages, notes, async (storage) => {
      await withGateway(storage, {}, async (gateway, database) => {
        if (gateway.fdLimit() < most + FD_MARGIN) notes.push(`${storage.name}: the gateway's limit of open files is ${gateway.fdLimit()}.`);
        const merchant = sandboxMerchant(gateway.url);
        const links: OpenPayment[] = await inBatches(Array.from({ length: LINKS }), 8, () => openPayment(gateway.url, merchant));
        const timed: OpenPayment[] = await inBatches(Array.from({ length: TIMED_TRANSFERS }), 8, () => openPayment(gateway.url, merchant));
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        let confirmingHeard = 0;
        const held = await holdStreams(gateway, storage.name, steps, (link) => `${gateway.url}/api/checkout/${links[link]!.ref}/events`, table, notes, {
          database,
          onConfirming: () => confirmingHeard++,
        });
        const { clients } = held;
        try {
          const load = loadavg()[0]!;
          const transfers = await timeTransfers(gateway.url, timed, Date.now() + TRANSFER_BUDGET_MS);
          if (transfers.cut) notes.push(`${storage.name}: ${transfers.toEvent.length} of ${TIMED_TRANSFERS} transfers timed within the ${TRANSFER_BUDGET_MS / 1000} s budget.`);
          const e = summarize(transfers.toEvent);
          const heapRatio = held.heapPerClient / floor.heapPerClient;
          targets.rows.push([
            storage.name,
            clients.length,
            round(held.heapPerClient),
            round(floor.heapPerClient),
            round(heapRatio),
            held.heapPerClient <= HEAP_TARGET_KB ? 'pass' : 'FAIL',
            round(held.rssPerClient),
            round(floor.rssPerClient),
            e.n,
            round(e.p50),
            round(e.p99),
            e.p99 < P99_TARGET_MS ? 'pass' : 'FAIL',
            round(load),
          ]);

          // One payment event, heard by every stream of its link.
          const target = links[0]!;
          const onLink = clients.filter((c) => c.link === 0).length;
          const t0 = performance.now();
          await payInFull(gateway.url, target.payment);
          await poll(() => (clients.filter((c) => c.link === 0 && c.sawConfirming).length >= onLink ? true : undefined), 30_000, 'fan-out to every client of the link');
          fanout.rows.push([storage.name, onLink, round(performance.now() - t0)]);
          if (confirmingHeard !== onLink) notes.push(`${storage.name}: ${confirmingHeard} streams saw a confirming event, ${onLink} expected.`);
        } finally {
          for (const client of clients) client.request.destroy();
        }
        // Closed streams are let go as their aborts are handled: wait (bounded) for the heap to come back down.
        const closedAt = performance.now();
        let heapAfter = Infinity;
        while (performance.now() - closedAt < RELEASE_WAIT_MS) {
          await new Promise((r) => setTimeout(r, SETTLE_MS));
          heapAfter = (await gateway.memory()).heapUsed / 1024;
          if (heapAfter < held.baseHeap + RELEASED_WITHIN_KB) break;
        }
        notes.push(
          `${storage.name}: ${fmt((performance.now() - closedAt) / 1000)} s after closing every stream the gateway's heap is ${fmt(heapAfter / 1024)} MB and RSS ${fmt(gateway.rssKb() / 1024)} MB (before the streams: ${fmt(held.baseHeap / 1024)} / ${fmt(held.baseRss / 1024)} MB).`,
        );
      });
    });
    notes.push(`The floor holds each stream as a bare node:http response in a Set, one shared heartbeat for all; it reads no database.`);
    notes.push('"404 max ms": the slowest GET of a route with no database work while the step opened (the longest the event loop stalled).');
    notes.push("DB conns: connections PostgreSQL reports for the gateway's database (a pool of at most 10 plus one LISTEN connection), not one per stream.");
    return [table, targets, fanout];
  },
});
