// Issue 3: how many open event streams one gateway process holds, and what each costs in memory.
// Raw HTTP streams rather than EventSource objects keep the bench's own side light; a client counts once its
// first bytes have arrived.
import { get, type ClientRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { fmt, round, summarize, type Table } from '../lib/report.js';
import { NO_ROUTE, probeWhile } from '../lib/probe.js';
import { inBatches, openPayment, payInFull, poll, sandboxMerchant, type OpenPayment } from '../lib/gateway-client.js';
import { forEachStorage, withGateway, type Suite } from '../lib/suite.js';

const STEPS = [1_000, 2_500, 5_000];
/** Clients are spread over this many links (each with an open payment), like many checkout pages. */
const LINKS = 50;
const OPEN_CONCURRENCY = 100;
const CONNECT_TIMEOUT_MS = 15_000;
/** Per storage, for opening every step. */
const BUDGET_MS = 60_000;
const SETTLE_MS = 1_000;
/** How long to wait for the heap to drop back after the streams close, and how close to the start counts as back. */
const RELEASE_WAIT_MS = 15_000;
const RELEASED_WITHIN_KB = 8 * 1024;
/** File descriptors the bench keeps for itself beyond its streams. */
const FD_MARGIN = 200;

interface StreamClient {
  request: ClientRequest;
  link: number;
  /** Whether a confirming payment has come down this stream. */
  sawConfirming: boolean;
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

export const sseCapacitySuite: Suite = {
  id: 'sse-capacity',
  title: 'Issue 3: concurrent SSE clients per gateway process',
  gateway: true,
  async run({ storages }) {
    const notes: string[] = [];
    const limit = ownFdLimit();
    const steps = STEPS.filter((n) => n + FD_MARGIN <= limit);
    if (steps.length < STEPS.length) notes.push(`The bench's own limit of open files is ${limit}: steps above ${limit - FD_MARGIN} clients left out (raise \`ulimit -n\`).`);
    const table: Table = {
      title: `SSE clients: raw streams in steps over ${LINKS} links, RSS from /proc/<pid>/status, heap after a full GC`,
      columns: ['storage', 'clients held', 'failed', 'open s', '404 max ms', 'RSS MB', 'RSS KB/client', 'heap MB', 'heap KB/client', 'DB conns'],
      rows: [],
    };
    const fanout: Table = {
      title: 'Fan-out at the last step: one transfer, time until every client of that link has the confirming event',
      columns: ['storage', 'clients on the link', 'all heard ms'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      await withGateway(storage, {}, async (gateway, database) => {
        if (gateway.fdLimit() < (steps.at(-1) ?? 0) + FD_MARGIN) notes.push(`${storage.name}: the gateway's limit of open files is ${gateway.fdLimit()}.`);
        const merchant = sandboxMerchant(gateway.url);
        const links: OpenPayment[] = await inBatches(Array.from({ length: LINKS }), 8, () => openPayment(gateway.url, merchant));
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        const baseRss = gateway.rssKb();
        const baseHeap = (await gateway.memory()).heapUsed / 1024;
        table.rows.push([storage.name, 0, 0, '—', '—', round(baseRss / 1024), '—', round(baseHeap / 1024), '—', (await database.connections()) ?? '—']);

        const clients: StreamClient[] = [];
        let confirmingHeard = 0;
        let failed = 0;
        const firstError = new Set<string>();
        const deadline = Date.now() + BUDGET_MS;
        try {
          for (const step of steps) {
            const t0 = performance.now();
            const wanted = Array.from({ length: step - clients.length - failed }, (_, i) => (clients.length + failed + i) % LINKS);
            let opening = true;
            const probes = probeWhile(`${gateway.url}${NO_ROUTE}`, () => opening);
            await inBatches(wanted, OPEN_CONCURRENCY, async (link) => {
              if (Date.now() > deadline) return;
              try {
                clients.push(await connect(`${gateway.url}/api/checkout/${links[link]!.ref}/events`, link, () => confirmingHeard++));
              } catch (error) {
                failed++;
                if (firstError.size < 3) firstError.add((error as Error).message);
              }
            });
            const openSeconds = (performance.now() - t0) / 1000;
            opening = false;
            const stall = summarize((await probes).times).max;
            await new Promise((r) => setTimeout(r, SETTLE_MS));
            const rss = gateway.rssKb();
            const heap = (await gateway.memory()).heapUsed / 1024;
            table.rows.push([
              storage.name,
              clients.length,
              failed,
              round(openSeconds),
              round(stall, 0),
              round(rss / 1024),
              round((rss - baseRss) / clients.length),
              round(heap / 1024),
              round((heap - baseHeap) / clients.length),
              (await database.connections()) ?? '—',
            ]);
            if (Date.now() > deadline) {
              notes.push(`${storage.name}: the ${BUDGET_MS / 1000} s budget ran out at ${clients.length} clients.`);
              break;
            }
          }
          if (failed) notes.push(`${storage.name}: ${failed} streams failed to open (${[...firstError].join('; ')}).`);

          // One payment event, heard by every stream of its link: each stream reads it from the database itself.
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
          if (heapAfter < baseHeap + RELEASED_WITHIN_KB) break;
        }
        notes.push(
          `${storage.name}: ${fmt((performance.now() - closedAt) / 1000)} s after closing every stream the gateway's heap is ${fmt(heapAfter / 1024)} MB and RSS ${fmt(gateway.rssKb() / 1024)} MB (before the streams: ${fmt(baseHeap / 1024)} / ${fmt(baseRss / 1024)} MB).`,
        );
      });
    });
    notes.push('"404 max ms": the slowest GET of a route with no database work while the step opened (the longest the event loop stalled).');
    notes.push('DB conns: connections PostgreSQL reports for the gateway\'s database (a pool of at most 10 plus one LISTEN connection), not one per stream.');
    return { tables: [table, fanout], notes };
  },
};
