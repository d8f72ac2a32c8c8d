// The bench's side of the gateway, over HTTP only, as a merchant, a browser and a tester reach it.
import { EventSource } from 'eventsource';
import type { Payment } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { checkoutApi, sandboxApi } from '../../test/helpers/checkout.js';
import { sampleLink } from '../../test/helpers/gateway.js';

export function sandboxMerchant(baseUrl: string): MerchantClient {
  return new MerchantClient({ baseUrl, ...SANDBOX_DEFAULTS });
}

function ok<T>(what: string, answer: { status: number; body: T }): T {
  if (answer.status >= 300) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export interface OpenPayment {
  ref: string;
  orderId: string;
  payment: Payment;
}

/** A signed link and a USDT/TRON payment opened on it, as the element opens one. */
export async function openPayment(baseUrl: string, merchant: MerchantClient): Promise<OpenPayment> {
  const input = sampleLink();
  const link = await merchant.createPaymentLink(input);
  const payment = ok('open payment', await checkoutApi(baseUrl, link.payment_link_ref).open('USDT', 'TRON'));
  return { ref: link.payment_link_ref, orderId: input.merchant_order_id, payment };
}

/** The test wallet sends the full amount to the payment's address. */
export async function payInFull(baseUrl: string, payment: Payment): Promise<void> {
  ok('wallet transfer', await sandboxApi(baseUrl).transfer(payment.address, payment.asset, payment.network, payment.amount_crypto));
}

/** Sandbox: ends the payment's quote now (a `payment.expired` event, and nothing left for the watcher to follow). */
export async function expireQuote(baseUrl: string, payment: Payment): Promise<void> {
  ok('expire quote', await sandboxApi(baseUrl).expireQuote(payment.payment_id));
}

export async function mine(baseUrl: string, blocks: number): Promise<void> {
  ok('mine', await sandboxApi(baseUrl).mine(blocks, 'TRON'));
}

/** Maps with at most `concurrency` calls in flight. */
export async function inBatches<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Rejects if `promise` has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Checks `ready` every 10 ms until it answers something; rejects after `ms`. */
export async function poll<T>(ready: () => T | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = ready();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface PaymentWatch {
  /** Resolves with the arrival time (performance.now()) of the first event matching, seen now or later. */
  until(match: (payment: Payment) => boolean): Promise<number>;
  close(): void;
}

/** A real EventSource on a link's event stream; every `payment` event is stamped on arrival. */
export function watchPayments(baseUrl: string, ref: string): PaymentWatch {
  const source = new EventSource(new URL(`/api/checkout/${ref}/events`, baseUrl));
  const seen: { at: number; payment: Payment }[] = [];
  const waiters = new Set<() => void>();
  source.addEventListener('payment', (event) => {
    seen.push({ at: performance.now(), payment: JSON.parse(event.data) as Payment });
    for (const wake of waiters) wake();
  });
  return {
    until(match) {
      return new Promise((resolve) => {
        const check = () => {
          const hit = seen.find((e) => match(e.payment));
          if (!hit) return;
          waiters.delete(check);
          resolve(hit.at);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => source.close(),
  };
}

export interface TransferTimes {
  /** ms from the transfer request to the `confirming` event at the client, per payment. */
  toEvent: number[];
  /** ms from the transfer request to its answer, per payment. */
  toAnswer: number[];
  /** Payments whose event came before the transfer's own answer. */
  eventFirst: number;
  /** Whether the deadline stopped it before every payment was measured. */
  cut: boolean;
}

/**
 * Pays each opened payment in full, one at a time, each watched by a real EventSource on its link, and times the
 * `confirming` event with the whole amount at the client; stops at `deadline` (Date.now() ms).
 */
export async function timeTransfers(baseUrl: string, opened: readonly OpenPayment[], deadline: number, eventTimeoutMs = 10_000): Promise<TransferTimes> {
  const times: TransferTimes = { toEvent: [], toAnswer: [], eventFirst: 0, cut: false };
  for (const { ref, payment } of opened) {
    if (Date.now() > deadline) {
      times.cut = true;
      break;
    }
    const watch = watchPayments(baseUrl, ref);
    try {
      const ours = (p: { payment_id: string }) => p.payment_id === payment.payment_id;
      await within(watch.until(ours), eventTimeoutMs, "the stream's first event");
      // A full transfer on a chain that wants confirmations: seen at once, so `confirming` with the whole amount.
      const received = watch.until((p) => ours(p) && p.status === 'confirming' && p.received_crypto === payment.amount_crypto);
      const t0 = performance.now();
      const answered = payInFull(baseUrl, payment).then(() => performance.now());
      const heard = await within(received, eventTimeoutMs, `the confirming event of ${payment.payment_id}`);
      const answer = await answered;
      times.toEvent.push(heard - t0);
      times.toAnswer.push(answer - t0);
      if (heard < answer) times.eventFirst++;
    } finally {
      watch.close();
    }
  }
  return times;
}
