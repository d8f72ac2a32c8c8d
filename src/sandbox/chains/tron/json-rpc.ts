// TRON's JSON-RPC (java-tron's `/jsonrpc`, TronGrid's) as a provider serves it, throttling included (DESIGN.md 9.1):
// HTTP 403, 429 or 503, a 200 whose body is `{"Error": …}`, or a body that is no JSON-RPC answer is the provider
// refusing, and the client then backs off (doubling from the poll interval to MAX_BACKOFF_MS) without calling, so that a
// throttled key is not made worse. Every call has a timeout and a bounded answer: what a provider sends is believed only
// once it is a JSON-RPC answer to the call made.
import { readCapped } from '../../http/capped-body.js';

/** The most an answer may hold: a block's header, or a block's USDT Transfer logs (a few hundred on mainnet). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
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
}

export class TronJsonRpc {
  #id = 0;
  #backoffMs = 0;
  #quietUntil = 0;
  /** What the provider said when it last refused: said again while backing off, so an outage is one log line. */
  #refusal = '';

  constructor(private readonly options: TronRpcOptions) {}

  async call<T>(method: string, params: unknown[]): Promise<T> {
    const wait = this.#quietUntil - Date.now();
    if (wait > 0) throw new TronProviderError(this.#refusal, true, wait);
    try {
      const result = await this.#call<T>(method, params);
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

  async #call<T>(method: string, params: unknown[]): Promise<T> {
    const id = ++this.#id;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers['TRON-PRO-API-KEY'] = this.options.apiKey;
    const response = await fetch(this.options.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }), signal, redirect: 'manual' }).catch(
      (error: unknown) => {
        throw new TronProviderError(signal.aborted ? `no answer to ${method} in ${this.options.timeoutMs} ms` : `cannot be reached: ${(error as Error).message}`);
      },
    );
    const bytes = await readCapped(response, MAX_ANSWER_BYTES, signal, (why) =>
      new TronProviderError(why === 'size' ? `the answer to ${method} is more than ${MAX_ANSWER_BYTES} bytes` : why === 'time-limit' ? `no answer to ${method} in ${this.options.timeoutMs} ms` : `the answer to ${method} broke off`),
    );
    if (THROTTLING_STATUSES.has(response.status)) throw new TronProviderError(`HTTP ${response.status} to ${method}: the provider throttles`, true);
    if (!response.ok) throw new TronProviderError(`HTTP ${response.status} to ${method}`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new TronProviderError(`the answer to ${method} is not JSON`, true);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TronProviderError(`the answer to ${method} is not a JSON-RPC answer`, true);
    const answer = body as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown }; Error?: unknown };
    // TronGrid's refusal of a key over its budget: a 200 whose body says so instead of answering.
    if ('Error' in answer) throw new TronProviderError(`the provider refuses ${method}: ${String(answer.Error).slice(0, 200)}`, true);
    if (answer.jsonrpc !== '2.0' || answer.id !== id || !('result' in answer || 'error' in answer)) throw new TronProviderError(`the answer to ${method} is not a JSON-RPC answer to it`, true);
    if (answer.error) {
      const code = typeof answer.error.code === 'number' ? answer.error.code : 0;
      throw new TronRpcError(code, `${method}: ${String(answer.error.message).slice(0, 200)} (${code})`);
    }
    return answer.result as T;
  }
}
