// The customer's side over HTTP only: the checkout API, the test wallet and the chain, as a browser or a tester reaches them.
import { EventSource } from 'eventsource';
import type { AssetCode, ChainState, CheckoutView, Network, Payment, RefundResource } from '../../src/contract/index.js';
import type { MerchantClient } from '../../src/merchant/index.js';

export async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, base), {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export function checkoutApi(base: string, ref: string) {
  return {
    view: () => call<CheckoutView>(base, 'GET', `/api/checkout/${ref}`),
    open: (asset: AssetCode, network: Network, extra: Record<string, unknown> = {}) =>
      call<Payment>(base, 'POST', `/api/checkout/${ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network, ...extra }),
    payment: (id: string) => call<Payment>(base, 'GET', `/api/checkout/${ref}/payments/${id}`),
  };
}

export function sandboxApi(base: string) {
  return {
    wallet: () => call<{ addresses: Record<Network, string>; balances: { asset: AssetCode; network: Network; balance: string }[] }>(base, 'GET', '/sandbox/wallet'),
    transfer: (to: string, asset: AssetCode, network: Network, amount: string) =>
      call<{ tx_hash: string }>(base, 'POST', '/sandbox/wallet/transfers', { to, asset, network, amount }),
    mine: (blocks: number, network?: Network) => call<{ tips: Record<Network, number> }>(base, 'POST', '/sandbox/chain/mine', { blocks, network }),
    chain: () => call<ChainState>(base, 'GET', '/sandbox/chain'),
    expireQuote: (paymentId: string) => call<Payment>(base, 'POST', `/sandbox/payments/${paymentId}/expire-quote`),
  };
}

/** Follows a link's event stream with a real EventSource client; `next(predicate)` waits for a matching payment. */
export function followEvents(base: string, ref: string, init?: { lastEventId?: string }) {
  const url = new URL(`/api/checkout/${ref}/events`, base);
  const source = new EventSource(url, {
    fetch: (input, options) =>
      fetch(input, { ...options, headers: { ...options?.headers, ...(init?.lastEventId ? { 'Last-Event-ID': init.lastEventId } : {}) } }),
  });
  const seen: { id: string; payment: Payment }[] = [];
  const waiters = new Set<() => void>();
  source.addEventListener('payment', (event) => {
    seen.push({ id: event.lastEventId, payment: JSON.parse(event.data) as Payment });
    for (const wake of waiters) wake();
  });
  return {
    seen,
    source,
    /** Resolves with the first payment seen (or already seen) that matches; rejects after `ms`. */
    next(match: (payment: Payment) => boolean, ms = 10_000): Promise<Payment> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = seen.find((e) => match(e.payment));
          if (!hit) return;
          cleanup();
          resolve(hit.payment);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching event in ${ms} ms; saw ${seen.map((e) => e.payment.status).join(', ') || 'nothing'}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => source.close(),
  };
}

/** A partial refund of the order, made by the merchant and claimed to `address` on its page as the customer does: the refund as the merchant then reads it. */
export async function claimedRefund(base: string, client: MerchantClient, orderId: string, amount: number, address: string): Promise<RefundResource> {
  const list = await client.createRefund(orderId, { amount, channel: 'PROVIDER', description: 'returned', refund_type: 'partial', refund_reason: 'damaged' });
  const refund = list.refundDetails.at(-1)!;
  const { pathname, search } = new URL(refund.claim_url!);
  const answer = await fetch(new URL(pathname + search, base), { method: 'POST', body: new URLSearchParams({ address, confirm: 'yes' }) });
  if (answer.status !== 200) throw new Error(`the claim answered ${answer.status}: ${await answer.text()}`);
  return client.getRefund(refund.refund_id);
}
