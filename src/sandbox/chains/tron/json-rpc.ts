// TRON's JSON-RPC (java-tron's `/jsonrpc`, TronGrid's) as a provider serves it, throttling included (DESIGN.md 9.1),
// and its HTTP API (`/wallet/…` at TRON_API_URL) beside it, under the same key and the same rules:
// HTTP 403, 429 or 503, a 200 whose body is `{"Error": …}`, or a body that is no JSON-RPC answer (or no JSON object,
// from the HTTP API) is the provider refusing, and the client then backs off (doubling from the poll interval to
// MAX_BACKOFF_MS) without calling either, so that a throttled key is not made worse. Every call has a timeout and a
// bounded answer: what a provider sends is believed only once it is an answer to the call made.
import { readCapped } from '../../http/capped-body.js';

/** The most an answer may hold: a block's header, or a block's USDT Transfer logs (a few hundred on mainnet). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** The most an HTTP API answer may hold: a broadcast's result, a transaction's info, an account's resources. */
const MAX_API_ANSWER_BYTES = 256 * 1024;
/** The longest wait between calls to a provider that refuses them: about 5 s, so a payment is found soon after. */
export const MAX_BACKOFF_MS = 5_000;
const THROTTLING_STATUSES = new Set([403, 429, 503]);

/** The provider refused or could not be understood: the network cannot be seen now, and nothing it said is believed. */
export class TronProviderError extends Error {
  constructor(
    message: string,
    readonly throttled = false,
    /** While the client backs off: how long until it calls again. */
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

/** A JSON-RPC error the node answered (a method or tag TRON refuses, a block it does not have). */
export class TronRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface TronRpcOptions {
  url: string;
  timeoutMs: number;
  /** The first wait after a refusal, doubled on each further one up to MAX_BACKOFF_MS. */
  backoffMs: number;
  /** `TRON-PRO-API-KEY`: sent on every call, never logged or shown. */
  apiKey?: string;
  /** The HTTP API's origin (TRON_API_URL), for `wallet()`. */
  apiUrl?: string;
}

export class TronJsonRpc {
  #id = 0;
  #backoffMs = 0;
  #quietUntil = 0;
  /** What the provider said when it last refused: said again while backing off, so an outage is one log line. */
  #refusal = '';

  constructor(private readonly options: TronRpcOptions) {}

  /** A JSON-RPC call's result. */
  call<T>(method: string, params: unknown[]): Promise<T> {
    return this.#refusable(async () => {
      const id = ++this.#id;
      const answer = (await this.#post(this.options.url, method, { jsonrpc: '2.0', id, method, params }, MAX_ANSWER_BYTES)) as {
        jsonrpc?: unknown;
        id?: unknown;
        result?: unknown;
        error?: { code?: unknown; message?: unknown };
      };
      if (answer.jsonrpc !== '2.0' || answer.id !== id || !('result' in answer || 'error' in answer)) throw new TronProviderError(`the answer to ${method} is not a JSON-RPC answer to it`, true);
      if (answer.error) {
        const code = typeof answer.error.code === 'number' ? answer.error.code : 0;
        throw new TronRpcError(code, `${method}: ${String(answer.error.message).slice(0, 200)} (${code})`);
      }
      return answer.result as T;
    });
  }

  /** A call of the HTTP API (`/wallet/broadcasthex`, …): its JSON object, as TRON printed it. */
  wallet(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!this.options.apiUrl) throw new Error('no TRON_API_URL to call');
    return this.#refusable(() => this.#post(new URL(path, this.options.apiUrl).href, path, body, MAX_API_ANSWER_BYTES));
  }

  /** Refused while backing off; a refusal makes the next wait longer, an answer ends it. */
  async #refusable<T>(call: () => Promise<T>): Promise<T> {
    const wait = this.#quietUntil - Date.now();
    if (wait > 0) throw new TronProviderError(this.#refusal, true, wait);
    try {
      const result = await call();
      this.#backoffMs = 0;
      return result;
    } catch (error) {
      if (error instanceof TronProviderError && error.throttled) {
        this.#backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(this.options.backoffMs, this.#backoffMs * 2));
        this.#quietUntil = Date.now() + this.#backoffMs;
        this.#refusal = error.message;
      }
      throw error;
    }
  }

  /** POSTs JSON and reads a JSON object back, within the timeout and `maxBytes`; a refusal in any of its forms throws. */
  async #post(url: string, what: string, payload: unknown, maxBytes: number): Promise<Record<string, unknown>> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers['TRON-PRO-API-KEY'] = this.options.apiKey;
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(payload), signal, redirect: 'manual' }).catch((error: unknown) => {
      throw new TronProviderError(signal.aborted ? `no answer to ${what} in ${this.options.timeoutMs} ms` : `cannot be reached: ${(error as Error).message}`);
    });
    const bytes = await readCapped(response, maxBytes, signal, (why) =>
      new TronProviderError(why === 'size' ? `the answer to ${what} is more than ${maxBytes} bytes` : why === 'time-limit' ? `no answer to ${what} in ${this.options.timeoutMs} ms` : `the answer to ${what} broke off`),
    );
    if (THROTTLING_STATUSES.has(response.status)) throw new TronProviderError(`HTTP ${response.status} to ${what}: the provider throttles`, true);
    if (!response.ok) throw new TronProviderError(`HTTP ${response.status} to ${what}`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new TronProviderError(`the answer to ${what} is not JSON`, true);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TronProviderError(`the answer to ${what} is not a JSON object`, true);
    // TronGrid's refusal of a key over its budget, and java-tron's rate limiter: a 200 whose body says so instead of answering.
    if ('Error' in body) throw new TronProviderError(`the provider refuses ${what}: ${String((body as { Error: unknown }).Error).slice(0, 200)}`, true);
    return body as Record<string, unknown>;
  }
}
