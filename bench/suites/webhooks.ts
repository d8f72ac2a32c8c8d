// How soon after a payment is paid the merchant's endpoint hears of it, and how fast a backlog drains.
import { round, summarize, type Cell, type Table } from '../lib/report.js';
import { expireQuote, inBatches, openPayment, payInFull, poll, sandboxMerchant, watchPayments, within, type OpenPayment } from '../lib/gateway-client.js';
import { startTimedReceiver } from '../lib/receiver.js';
import { startServer } from '../lib/server-process.js';
import type { Storage } from '../lib/storage.js';
import { FLOOD_LIMITS, forEachStorage, gatewaySuite, withGateway } from '../lib/suite.js';

/** Payments timed from paid to webhook. */
const PAID_PAYMENTS = 100;
/** Transfers are spread over time, as customers pay, so blocks confirm a few at a time. */
const TRANSFER_GAP_MS = 50;
/** Events queued before a worker starts, for throughput: quotes ended on demand, which leave the watcher nothing to follow. */
const QUEUED_EVENTS = 300;
const PREPARE_CONCURRENCY = 8;
const WAIT_MS = 60_000;

async function measurePaidLatency(storage: Storage): Promise<Cell[]> {
  const receiver = await startTimedReceiver();
  try {
    return await withGateway(storage, { SANDBOX_WEBHOOK_URL: receiver.url, SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1' }, async (gateway) => {
      const merchant = sandboxMerchant(gateway.url);
      const opened = await inBatches(Array.from({ length: PAID_PAYMENTS }), PREPARE_CONCURRENCY, () => openPayment(gateway.url, merchant));
      const watches = opened.map(({ ref }) => watchPayments(gateway.url, ref));
      try {
        const paidAt = opened.map(({ payment }, i) => watches[i]!.until((p) => p.payment_id === payment.payment_id && p.status === 'paid'));
        for (const { payment } of opened) {
          await payInFull(gateway.url, payment);
          await new Promise((r) => setTimeout(r, TRANSFER_GAP_MS));
        }
        const paid = await within(Promise.all(paidAt), WAIT_MS, 'every SSE paid event');
        const hooks = await poll(() => {
          const arrived = receiver.matching((e) => e.type === 'payment.paid');
          return arrived.length >= PAID_PAYMENTS ? arrived : undefined;
        }, WAIT_MS, 'every payment.paid webhook');
        const byPayment = new Map(hooks.map((h) => [h.event.payment_id, h]));
        // The gateway's paid moment: the webhook event's created_at, stamped in the transaction that made the payment paid.
        const paidMoment = opened.map(({ payment }) => Date.parse(byPayment.get(payment.payment_id)!.event.created_at) - performance.timeOrigin);
        const toSse = summarize(paid.map((at, i) => at - paidMoment[i]!));
        const toHook = summarize(opened.map(({ payment }, i) => byPayment.get(payment.payment_id)!.at - paidMoment[i]!));
        const sseToHook = summarize(opened.map(({ payment }, i) => byPayment.get(payment.payment_id)!.at - paid[i]!));
        return [
          storage.name,
          toHook.n,
          round(toSse.p50),
          round(toSse.p99),
          round(toHook.p50),
          round(toHook.p99),
          round(sseToHook.p50),
          round(sseToHook.p99),
          receiver.duplicates(),
        ];
      } finally {
        for (const watch of watches) watch.close();
      }
    });
  } finally {
    await receiver.close();
  }
}

async function measureThroughput(storage: Storage): Promise<Cell[]> {
  const receiver = await startTimedReceiver();
  const database = await storage.fresh({ reopenable: true });
  try {
    const env = { ...database.env, ...FLOOD_LIMITS, SANDBOX_WEBHOOK_URL: receiver.url, SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1' };
    // The producer: no timers, so nothing is delivered (and no block is mined) while the queue fills.
    const producer = await startServer('gateway', { ...env, BENCH_TIMERS: 'off' });
    let queuedPerSecond: number;
    try {
      const merchant = sandboxMerchant(producer.url);
      const opened: OpenPayment[] = await inBatches(Array.from({ length: QUEUED_EVENTS }), PREPARE_CONCURRENCY, () => openPayment(producer.url, merchant));
      const t0 = performance.now();
      await inBatches(opened, PREPARE_CONCURRENCY, ({ payment }) => expireQuote(producer.url, payment));
      queuedPerSecond = QUEUED_EVENTS / ((performance.now() - t0) / 1000);
    } finally {
      await producer.stop();
    }
    if (receiver.arrivals.size) throw new Error(`${receiver.arrivals.size} webhooks arrived from a gateway without timers`);

    const worker = await startServer('gateway', env);
    try {
      const started = performance.now();
      const expired = await poll(() => {
        const arrived = receiver.matching((e) => e.type === 'payment.expired');
        return arrived.length >= QUEUED_EVENTS ? arrived : undefined;
      }, WAIT_MS * 2, `${QUEUED_EVENTS} queued webhooks`);
      const times = expired.map((a) => a.at).sort((a, b) => a - b);
      const first = times[0]!;
      const last = times[times.length - 1]!;
      return [
        storage.name,
        expired.length,
        round(queuedPerSecond),
        round((first - started) / 1000, 2),
        round((last - first) / 1000, 2),
        round((expired.length - 1) / ((last - first) / 1000)),
        receiver.duplicates(),
      ];
    } finally {
      await worker.stop();
    }
  } finally {
    await database.drop();
    await receiver.close();
  }
}

export const webhookSuite = gatewaySuite({
  id: 'webhooks',
  title: 'Webhook latency and throughput',
  async run({ storages }, notes) {
    const paidLatency: Table = {
      title: `Paid → webhook: ${PAID_PAYMENTS} USDT/TRON payments, transfers ${TRANSFER_GAP_MS} ms apart, blocks and deliveries on the gateway's own timers`,
      columns: ['storage', 'payments', 'paid → SSE p50 ms', 'p99 ms', 'paid → webhook p50 ms', 'p99 ms', 'SSE paid → webhook p50 ms', 'p99 ms', 'duplicates'],
      rows: [],
    };
    const throughput: Table = {
      title: `Webhook throughput: ${QUEUED_EVENTS} payment.expired events queued by a gateway without timers, drained by a fresh gateway process on the same database`,
      columns: ['storage', 'events', 'queued/s (producer)', 'worker start → first s', 'first → last s', 'delivered/s', 'duplicates'],
      rows: [],
    };
    await forEachStorage(storages, notes, async (storage) => {
      paidLatency.rows.push(await measurePaidLatency(storage));
      throughput.rows.push(await measureThroughput(storage));
    });
    notes.push(
      '"paid" is the payment.paid event\'s created_at, stamped by the gateway in the transaction that made the payment paid (ms resolution); SSE and webhook arrivals are stamped in the bench process on the same clock. "SSE paid → webhook" compares the two arrivals directly.',
      'Throughput on PGlite runs on a data folder (PGLITE_DIR), since the queue must outlive the producer process; the worker process\'s own start (PGlite ~3 s) is before "worker start", which counts from its URL being announced.',
    );
    return [paidLatency, throughput];
  },
});
