// How long after a wallet transfer the customer's page hears of it, through a real EventSource.
import { loadavg } from 'node:os';
import { round, summarize, type Table } from '../lib/report.js';
import { inBatches, openPayment, sandboxMerchant, timeTransfers } from '../lib/gateway-client.js';
import { forEachStorage, gatewaySuite, withGateway } from '../lib/suite.js';

const PAYMENTS = 200;
const PREPARE_CONCURRENCY = 8;
const EVENT_TIMEOUT_MS = 10_000;
/** Per storage; the payments measured by then are reported. */
const BUDGET_MS = 90_000;

export const sseLatencySuite = gatewaySuite({
  id: 'sse',
  title: 'Wallet transfer to SSE event at the client',
  async run({ storages }, notes) {
    const table: Table = {
      title: `Transfer → SSE: ${PAYMENTS} USDT/TRON payments, one at a time, each watched by its own EventSource; timers on (blocks every 3 s)`,
      columns: ['storage', 'payments', 'SSE p50 ms', 'SSE p99 ms', 'SSE max ms', 'POST answer p50 ms', 'POST answer p99 ms', 'SSE before answer', 'load'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      await withGateway(storage, {}, async (gateway) => {
        const merchant = sandboxMerchant(gateway.url);
        // All links open first, as on a busy gateway: every block then reconciles all of them (see the notes).
        const opened = await inBatches(Array.from({ length: PAYMENTS }), PREPARE_CONCURRENCY, () => openPayment(gateway.url, merchant));
        const load = loadavg()[0]!;
        const { toEvent, toAnswer, eventFirst, cut } = await timeTransfers(gateway.url, opened, Date.now() + BUDGET_MS, EVENT_TIMEOUT_MS);
        if (cut) notes.push(`${storage.name}: stopped after ${toEvent.length} payments, at the ${BUDGET_MS / 1000} s budget.`);
        const e = summarize(toEvent);
        const a = summarize(toAnswer);
        table.rows.push([storage.name, e.n, round(e.p50), round(e.p99), round(e.max), round(a.p50), round(a.p99), `${eventFirst}/${e.n}`, round(load)]);
      });
    });
    notes.push(
      'The wallet reconciles the receiving address inside POST /sandbox/wallet/transfers and NOTIFY fires on commit, so the event does not wait for the 1 s watcher tick; "POST answer" is that request\'s own round trip, for scale.',
    );
    return [table];
  },
});
