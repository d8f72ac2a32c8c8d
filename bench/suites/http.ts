// Issue 2: requests/s and latency of the merchant API's hot endpoints, beside Hono's hello world started the same way.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { sampleLink } from '../../test/helpers/gateway.js';
import { signedLinkBody as signedBody } from '../../test/helpers/merchant-api.js';
import { mine, openPayment, payInFull, sandboxMerchant } from '../lib/gateway-client.js';
import { round, type Cell, type Table } from '../lib/report.js';
import { startServer } from '../lib/server-process.js';
import { forEachStorage, withGateway, type Suite } from '../lib/suite.js';

const DURATION_S = 6;
const CONNECTIONS = 25;
/** Requests sent first and not counted: JIT, pools and caches warm up. */
const WARMUP_REQUESTS = 300;
/** Signed bodies made before the clock starts; more are signed on the fly if a fast gateway uses them all. */
const PRESIGNED_BODIES = 12_000;
const REFUNDS_ON_ORDER = 3;

type Case = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'requests'>;

/** autocannon stops at the bell with requests still in flight: let them finish before anything else runs. */
const DRAIN_MS = 1_000;

async function cannon(target: Case): Promise<autocannon.Result> {
  await autocannon({ ...target, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_S });
  await new Promise((r) => setTimeout(r, DRAIN_MS));
  return result;
}

function row(name: string, storage: string, result: autocannon.Result): Cell[] {
  const codes = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${code}×${s.count ?? 0}`)
    .join(' ');
  return [name, storage, round(result.requests.average, 0), round(result.latency.p50, 0), round(result.latency.p99, 0), result['2xx'], codes || 0, result.errors];
}

/** A payment link request as the SDK sends it: distinct order id, signed. */
const signedLinkBody = (): string => JSON.stringify(signedBody(SANDBOX_DEFAULTS, sampleLink()));

export const httpSuite: Suite = {
  id: 'http',
  title: 'Issue 2: merchant API throughput and latency',
  gateway: true,
  async run({ storages }) {
    const table: Table = {
      title: `HTTP: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per case after ${WARMUP_REQUESTS} warm-up requests; gateway in its own process`,
      columns: ['case', 'storage', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors'],
      rows: [],
    };
    const notes: string[] = [];

    const hello = await startServer('hello');
    try {
      table.rows.push(row('Hono hello world (GET /)', '—', await cannon({ url: `${hello.url}/` })));
    } finally {
      await hello.stop();
    }

    const bodies = Array.from({ length: PRESIGNED_BODIES }, signedLinkBody);
    let used = 0;
    await forEachStorage(storages, notes, async (storage) => {
      await withGateway(storage, {}, async (gateway) => {
        const createLinks: Case = {
          url: gateway.url,
          requests: [
            {
              method: 'POST',
              path: '/api/paymentLink',
              setupRequest: (request) => ({
                ...request,
                headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                body: bodies[used++] ?? signedLinkBody(),
              }),
            },
          ],
        };
        table.rows.push(row('POST /api/paymentLink', storage.name, await cannon(createLinks)));

        // A paid order with a few refunds, paid through the real flow: payment, wallet transfer, blocks.
        const merchant = sandboxMerchant(gateway.url);
        const { orderId, payment } = await openPayment(gateway.url, merchant);
        await payInFull(gateway.url, payment);
        await mine(gateway.url, payment.confirmations_required);
        for (let i = 0; i < REFUNDS_ON_ORDER; i++) {
          await merchant.createRefund(orderId, { amount: 50_000, channel: 'PROVIDER', description: `bench refund ${i + 1}`, refund_type: 'partial', refund_reason: 'bench' });
        }
        const { refundDetails } = await merchant.getRefunds(orderId);
        if (refundDetails.length !== REFUNDS_ON_ORDER) throw new Error(`expected ${REFUNDS_ON_ORDER} refunds on ${orderId}, the gateway lists ${refundDetails.length}`);
        const { access_token } = await merchant.issueToken();
        const readRefunds: Case = {
          url: `${gateway.url}/api/refund/getDataByTransaction/${encodeURIComponent(orderId)}`,
          headers: { authorization: `Bearer ${access_token}` },
        };
        table.rows.push(row(`GET /api/refund/getDataByTransaction (${REFUNDS_ON_ORDER} refunds)`, storage.name, await cannon(readRefunds)));
      });
    });
    if (used > PRESIGNED_BODIES) notes.push(`POST /api/paymentLink used ${used} bodies: ${used - PRESIGNED_BODIES} were signed during the run, on the load side.`);
    notes.push('POST /api/paymentLink sends what the SDK sends: a signed body with a fresh merchant_order_id and its own Idempotency-Key.');
    return { tables: [table], notes };
  },
};
