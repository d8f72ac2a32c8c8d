// A merchant and its customers, as clients do it, with every attempt logged with its times. The merchant is the SDK
// (src/merchant), which signs its links and sends a request that fails (no answer, 408, 429, a 5xx) again with the
// same Idempotency-Key; the customers' requests (checkout, wallet, chain) are sent again the same way by `send`; each
// gives up after GIVE_UP_MS.
/* global fetch, AbortSignal, Response */
import { setTimeout as pause } from 'node:timers/promises';
import { tsImport } from 'tsx/esm/api';
import { GIVE_UP_MS } from './mode.mjs';

// The SDK as source, compiled here by tsx (as the gateways are): the run needs no build.
const { MerchantClient, PayCheckoutApiError, PayCheckoutConnectionError, PayCheckoutResponseError, PayCheckoutTimeoutError } = await tsImport('../../src/merchant/index.ts', import.meta.url);

// The sandbox merchant the gateways start with: the gateway's own defaults, which no public surface exports.
const { SANDBOX_DEFAULTS: SANDBOX } = await tsImport('../../src/sandbox/config.ts', import.meta.url);

/** What each of the merchant's requests is in the figures, by its path. */
const MERCHANT_OPS = [
  ['/api/v2/oauth/token', 'token'],
  ['/api/paymentLink', 'link'],
  ['/api/refund/createRefund/', 'refund'],
];

export function clients(gateways, t0) {
  const attempts = [];
  const refused = [];

  /** `fetch` for the SDK: logs each attempt, which ends once its answer has come in full, as `send`'s do. */
  async function logged(input, init) {
    const path = new URL(input).pathname;
    const op = MERCHANT_OPS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? path;
    const started = Date.now() - t0;
    let status = 0; // no answer
    try {
      const response = await fetch(input, init);
      const text = await response.text();
      status = response.status;
      return new Response(text || null, { status, statusText: response.statusText, headers: response.headers });
    } finally {
      attempts.push({ op, started, ended: Date.now() - t0, status });
    }
  }
  const merchants = gateways.map((baseUrl) => new MerchantClient({ baseUrl, ...SANDBOX, fetch: logged, timeoutMs: GIVE_UP_MS, maxRetries: Infinity, initialRetryDelayMs: 200 }));

  /** One call of the SDK: its answer, or undefined when it never succeeded (refused, or given up on). */
  async function merchant(op, path, call) {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PayCheckoutApiError && error.status >= 500) return undefined;
      if (error instanceof PayCheckoutTimeoutError || error instanceof PayCheckoutConnectionError) return undefined;
      // Refused: after a failover that lost writes, the order or link the client knows of may be gone.
      if (error instanceof PayCheckoutApiError || error instanceof PayCheckoutResponseError) {
        refused.push(`${op} ${path}: ${error.status} ${error.problem?.detail ?? error.message}`);
        return undefined;
      }
      throw error;
    }
  }

  /** One request, sent again while it fails; the answer's JSON, or undefined when it never succeeded. */
  async function send(base, op, method, path, { body } = {}) {
    const until = Date.now() + GIVE_UP_MS;
    for (;;) {
      const started = Date.now() - t0;
      let status;
      let json;
      try {
        const headers = body ? { 'Content-Type': 'application/json' } : {};
        const response = await fetch(base + path, { method, headers, body: body && JSON.stringify(body), signal: AbortSignal.timeout(GIVE_UP_MS) });
        status = response.status;
        json = await response.json().catch(() => undefined);
      } catch {
        status = 0; // no answer
      }
      attempts.push({ op, started, ended: Date.now() - t0, status });
      if (status >= 200 && status < 300) return json;
      if (status > 0 && status < 500) {
        refused.push(`${op} ${path}: ${status} ${json?.detail ?? ''}`);
        return undefined;
      }
      if (Date.now() > until) return undefined;
      await pause(200);
    }
  }
  const pick = (i) => gateways[i % gateways.length];
  return {
    attempts,
    refused,
    createLink: (i, orderId) =>
      merchant('link', '/api/paymentLink', () =>
        merchants[i % merchants.length].createPaymentLink(
          {
            merchant_order_id: orderId,
            amount: 360_000,
            currency: 'VND',
            order_details: [{ id: 'sku-1', name: 'Cà phê hạt 500 g', price: 180_000, quantity: 2 }],
            success_url: 'https://shop.example/success',
            failure_url: 'https://shop.example/failure',
            expiry_hours: 24,
            description: 'Đơn hàng cà phê',
          },
          { idempotencyKey: `link-${orderId}` },
        ),
      ),
    openPayment: (i, ref) =>
      send(pick(i), 'payment', 'POST', `/api/checkout/${ref}/payments`, { body: { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } }),
    transfer: (i, payment) =>
      send(pick(i), 'transfer', 'POST', '/sandbox/wallet/transfers', { body: { to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto } }),
    payment: (i, ref, id) => send(pick(i), 'read', 'GET', `/api/checkout/${ref}/payments/${id}`),
    refund: (i, orderId, key) =>
      merchant('refund', `/api/refund/createRefund/${orderId}`, () =>
        merchants[i % merchants.length].createRefund(
          orderId,
          { amount: 100_000, channel: 'PROVIDER', description: 'One bag returned', refund_type: 'partial', refund_reason: 'damaged in transit' },
          { idempotencyKey: key },
        ),
      ),
    mine: (i, blocks = 1) => send(pick(i), 'mine', 'POST', '/sandbox/chain/mine', { body: { blocks, network: 'TRON' } }),
    faucet: (i) => send(pick(i), 'faucet', 'POST', '/sandbox/wallet/faucet', { body: {} }),
  };
}
