// One order's load: the streams' links and payments first, then WORKERS writers (a link, a payment opened on it, the
// customer's transfer; every other order refunded twice) and a miner, with the switch at SWITCH_AT_MS; after it, the
// streams' money. What was acknowledged is what checks.mjs looks for on the new primary.
/* global fetch, AbortController, TextDecoderStream */
import { randomBytes } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { AUTO, GAP_MS, LOAD_MS, STREAMS, SWITCH_AT_MS, WORKERS } from './mode.mjs';

/** `api` is clients.mjs's; `cluster.steps(order)` is the switch (cluster-pair.mjs, auto-formation.mjs). */
export async function load(api, gateways, cluster, order, t0) {
  const acked = { link: [], payment: [], transfer: [], refund: [] };
  const refundKeys = new Map(); // order id → refund Idempotency-Keys sent
  const lost = []; // requests never answered 2xx within GIVE_UP_MS

  // The streams' links and payments, before the load; their money comes after the switch.
  const streamed = [];
  for (let i = 0; i < STREAMS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, STREAMS - i) }, async (_, j) => {
        const orderId = `stream-${i + j}-${randomBytes(4).toString('hex')}`;
        const link = await api.createLink(i + j, orderId);
        const payment = await api.openPayment(i + j, link.payment_link_ref);
        acked.link.push(link.payment_link_ref);
        acked.payment.push(payment.payment_id);
        streamed.push({ ref: link.payment_link_ref, payment, i: i + j });
      }),
    );
  }
  const streams = streamed.map(({ ref, i }) => follow(gateways[i % 2], ref));

  const loadStart = Date.now();
  const loadEnds = loadStart + LOAD_MS;
  const marks = {};
  const switching = (async () => {
    await pause(SWITCH_AT_MS);
    const steps = cluster.steps(order);
    for (const [name, step] of steps) {
      marks[`${name} (start)`] = Date.now() - t0;
      await step();
      marks[name] = Date.now() - t0;
      // The manual switch's second step comes a second after the first; the monitor's promotion is waited for.
      if (!AUTO && step === steps[0][1]) await pause(GAP_MS);
    }
  })();

  let miners = true;
  const mining = (async () => {
    for (let i = 0; miners; i++) {
      await api.mine(i);
      await pause(400);
    }
  })();

  async function worker(w) {
    for (let n = 0; Date.now() < loadEnds; n++) {
      const i = w + n;
      const orderId = `order-${w}-${n}-${randomBytes(4).toString('hex')}`;
      const link = await api.createLink(i, orderId);
      if (!link) {
        lost.push(`link ${orderId}`);
        continue;
      }
      acked.link.push(link.payment_link_ref);
      const payment = await api.openPayment(i + 1, link.payment_link_ref);
      if (!payment) {
        lost.push(`payment ${link.payment_link_ref}`);
        continue;
      }
      acked.payment.push(payment.payment_id);
      const transfer = await api.transfer(i, payment);
      if (!transfer) {
        lost.push(`transfer ${payment.payment_id}`);
        continue;
      }
      acked.transfer.push(transfer.tx_hash);
      if (n % 2) continue; // every other order is refunded, twice
      let paid = false;
      for (const until = Date.now() + 8_000; !paid && Date.now() < until; await pause(300)) {
        paid = (await api.payment(i + 1, link.payment_link_ref, payment.payment_id))?.status === 'paid';
      }
      if (!paid) continue;
      for (const k of [1, 2]) {
        const key = `refund-${orderId}-${k}`;
        refundKeys.set(orderId, [...(refundKeys.get(orderId) ?? []), key]);
        const list = await api.refund(i + k, orderId, key);
        if (!list) lost.push(`refund ${key}`);
        else acked.refund.push(list.refundDetails.at(-1).refund_id);
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await switching;
  const upAt = Math.max(...Object.values(marks));

  // The streams' money, on the new primary: each stream must reach paid.
  await Promise.all(
    streamed.map(async ({ payment, i }) => {
      const transfer = await api.transfer(i, payment);
      if (transfer) acked.transfer.push(transfer.tx_hash);
      else lost.push(`transfer ${payment.payment_id}`);
    }),
  );
  miners = false;
  await mining;
  await api.mine(0, 4);
  return { acked, refundKeys, lost, streamed, streams, marks, upAt };
}

/** An event stream as a browser's EventSource follows it: reconnecting with Last-Event-ID whenever it ends. */
function follow(base, ref) {
  const stream = { ref, lastId: undefined, events: 0, reconnects: 0, abort: new AbortController() };
  stream.done = (async () => {
    while (!stream.abort.signal.aborted) {
      try {
        const response = await fetch(`${base}/api/checkout/${ref}/events`, {
          headers: stream.lastId ? { 'Last-Event-ID': stream.lastId } : {},
          signal: stream.abort.signal,
        });
        if (!response.ok) throw new Error(String(response.status));
        let buffer = '';
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
          buffer += chunk;
          for (let end; (end = buffer.indexOf('\n\n')) >= 0; buffer = buffer.slice(end + 2)) {
            const id = /^id: ?(.*)$/m.exec(buffer.slice(0, end))?.[1];
            if (id !== undefined) {
              stream.lastId = id;
              stream.events++;
            }
          }
        }
      } catch {
        // reconnected below
      }
      if (stream.abort.signal.aborted) break;
      stream.reconnects++;
      await pause(250);
    }
  })();
  return stream;
}
