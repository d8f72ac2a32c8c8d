// The gateway's own load: each block reconciles every open payment of its network. This measures how
// responsive the process stays meanwhile, with a route that touches no database (the event loop alone) and the
// checkout view (the event loop and the database).
import { round, summarize, type Cell, type Table } from '../lib/report.js';
import { inBatches, openPayment, payInFull, sandboxMerchant, type OpenPayment } from '../lib/gateway-client.js';
import { NO_ROUTE, PROBE_GAP_MS, probeFor } from '../lib/probe.js';
import { forEachStorage, gatewaySuite, withGateway } from '../lib/suite.js';

const OPEN_PAYMENTS = 200;
/** Two TRON blocks (3 s apart) for the quiet phases; the confirming phase covers the three confirmations and more. */
const QUIET_MS = 6_000;
const CONFIRMING_MS = 12_000;

async function phase(storage: string, name: string, baseUrl: string, ref: string, ms: number, during?: () => Promise<void>): Promise<Cell[]> {
  const [bare, view] = await Promise.all([probeFor(`${baseUrl}${NO_ROUTE}`, ms), probeFor(`${baseUrl}/api/checkout/${ref}`, ms), during?.()]);
  const b = summarize(bare.times);
  const v = summarize(view.times);
  const failed = [...bare.failures, ...view.failures];
  return [storage, name, b.n, round(b.p50), round(b.p99), round(b.max), v.n, round(v.p50), round(v.p99), round(v.max), failed.length ? `${failed.length} (${[...new Set(failed)].join(', ')})` : 0];
}

export const watcherSuite = gatewaySuite({
  id: 'watcher',
  title: 'Gateway responsiveness while blocks confirm many payments',
  async run({ storages }, notes) {
    const table: Table = {
      title: `Probes every ${PROBE_GAP_MS} ms on fresh connections; ${OPEN_PAYMENTS} USDT/TRON payments; timers on (TRON block every 3 s)`,
      columns: ['storage', 'phase', '404 n', '404 p50 ms', 'p99 ms', 'max ms', 'view n', 'view p50 ms', 'p99 ms', 'max ms', 'failed'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      await withGateway(storage, {}, async (gateway) => {
        const merchant = sandboxMerchant(gateway.url);
        const first = await openPayment(gateway.url, merchant);
        table.rows.push(await phase(storage.name, 'one payment open', gateway.url, first.ref, QUIET_MS));
        const rest: OpenPayment[] = await inBatches(Array.from({ length: OPEN_PAYMENTS - 1 }), 8, () => openPayment(gateway.url, merchant));
        table.rows.push(await phase(storage.name, `${OPEN_PAYMENTS} awaiting payment`, gateway.url, first.ref, QUIET_MS));
        const pay = async () => void (await inBatches([first, ...rest], 8, ({ payment }) => payInFull(gateway.url, payment)));
        table.rows.push(await phase(storage.name, `${OPEN_PAYMENTS} paid in full, confirming`, gateway.url, first.ref, CONFIRMING_MS, pay));
      });
    });
    notes.push('"404": GET of a route that does not exist (no database work: the event loop alone). "view": GET /api/checkout/{ref}, what the element polls on load.');
    return [table];
  },
});
