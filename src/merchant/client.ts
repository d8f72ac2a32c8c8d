// The merchant SDK: a typed client for the gateway's merchant API (docs/api.md) on `fetch` and WebCrypto alone,
// so it runs on Node 20+, Deno, Bun and edge workers. Every call has a deadline, retries what is safe to retry
// (network errors, 408, 429, 5xx) with exponential backoff and jitter, honouring Retry-After, sends one
// Idempotency-Key on every attempt of a call, and validates every answer with the contract.
import type * as z from 'zod/mini';
import {
  fieldErrors,
  MerchantEventList,
  MerchantEventResource,
  PaymentLinkList,
  PaymentLinkResource,
  PaymentLinkResponse,
  PayoutWallets,
  Problem,
  RefundList,
  RefundResource,
  RefundResourceList,
  TokenError,
  TokenResponse,
  ClientSecretRoll,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  type AssetCode,
  type CancelRefundRequest,
  type CreateRefundRequest,
  type LinkSort,
  type LinkStatus,
  type Network,
  type PaymentLinkInput,
  type RefundedState,
  type WebhookEventType,
} from '../contract/index.js';
import { PayCheckoutApiError, PayCheckoutConnectionError, PayCheckoutResponseError, PayCheckoutTimeoutError } from './errors.js';
import { signPaymentLinkBody } from './signature.js';

export interface MerchantClientOptions {
  /** `{base_url}`: payment links and refunds. */
  baseUrl: string;
  /** `{auth_url}`: the token endpoint; `baseUrl` when absent (as in the sandbox). */
  authUrl?: string;
  clientId: string;
  clientSecret: string;
  /** The Merchant Key, sent as `svc_key`. */
  merchantKey: string;
  fetch?: typeof fetch;
  /** The longest a call may take, retries and the waits between them included, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a network error, 408, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** The wait before the first retry, doubled for each further one (with jitter, at most 8 s). Default 500 ms. */
  initialRetryDelayMs?: number;
}

export interface RequestOptions {
  /**
   * Sent as `Idempotency-Key` on every attempt of this call; generated when absent. Pass your own (one per
   * logical operation, e.g. per order and refund) to retry a call later without doing it twice.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** This call's deadline, over the client's `timeoutMs`. */
  timeoutMs?: number;
}

export type ReadOptions = Pick<RequestOptions, 'signal' | 'timeoutMs'>;

/** Which of your payment links to list (GET /api/paymentLink); the filters combine. */
export interface PaymentLinkQuery {
  /** One order's links. */
  merchant_order_id?: string;
  /** What the customer or an accountant quotes (case-insensitive, diacritics ignored): part of an order id, a whole payment_link_ref, a payment or refund id, a transaction hash or its start, an address, the amount in VND (`530000`, `530.000`, `530,000`, `530 000`), part of a name, e-mail or phone. */
  q?: string;
  status?: LinkStatus;
  /** How much went back: `none`, `partly` or `fully` (paid links). */
  refunded?: RefundedState;
  /** `-created_at` (newest first, the default), `created_at`, `-amount` (largest first) or `amount`. */
  sort?: LinkSort;
  /** The answer's `total`: how many links the filters find in all. */
  include_total?: boolean;
  /** Links with a payment in this asset (and network). */
  asset?: AssetCode;
  network?: Network;
  /** Created at or after this instant (a string: an RFC 3339 date-time with its offset, or a date at midnight UTC). */
  created_from?: Date | string;
  /** Created before this instant. */
  created_before?: Date | string;
  /** true: links holding money not yet returned (late, superseded or excess payments); false: the others. */
  held?: boolean;
  /** Links per page, 1 to 200 (default 50). */
  limit?: number;
  /** The `next_cursor` of the page before. */
  cursor?: string;
}

/** How a call may be repeated: with its Idempotency-Key, as a read (no effect), or not at all. */
type Retry = 'idempotency-key' | 'read' | 'never';

interface Call<S extends z.ZodMiniType> {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  /** The answer's schema; `undefined` for an answer without a body (204). */
  schema: S | undefined;
  retry: Retry;
  body?: string | URLSearchParams;
  contentType?: string;
  bearer?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;
/** A token is renewed this long before it expires, so a request never carries one that dies in flight. */
const TOKEN_MARGIN_MS = 60_000;
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });

/** `promise`, or the signal's reason once it aborts, whichever comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Which of your events to list (GET /api/events). */
export interface EventQuery {
  /** The id of the last event you hold: the list starts after it. Absent: from the oldest kept. */
  after?: string;
  type?: WebhookEventType;
  /** 1 to 100 a page; default 10. */
  limit?: number;
}

/** Your events: the same bodies as your webhooks, each with its `sequence`, oldest first (docs/api.md, "Events"). */
export interface EventsApi {
  /** One page, and `next_after` to ask for the next. */
  list(query?: EventQuery, options?: ReadOptions): Promise<MerchantEventList>;
  get(eventId: string, options?: ReadOptions): Promise<MerchantEventResource>;
  /**
   * Every event after `after`, a page at a time as you iterate, up to the newest there is now. Store each event's id
   * once you have handled it; iterate from that id to resume after a crash or an outage.
   */
  iterate(query?: EventQuery, options?: ReadOptions): AsyncGenerator<MerchantEventResource>;
}

export class MerchantClient {
  #options: MerchantClientOptions;
  readonly #fetch: typeof fetch;
  #token: Promise<{ value: TokenResponse; renewAt: number }> | undefined;

  constructor(options: MerchantClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  readonly events: EventsApi = {
    list: (query = {}, options = {}) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
      return this.#read(`/api/events${params.size ? `?${params}` : ''}`, MerchantEventList, options);
    },
    get: (eventId, options = {}) => this.#read(`/api/events/${encodeURIComponent(eventId)}`, MerchantEventResource, options),
    iterate: (query = {}, options = {}) => this.#eachEvent(query, options),
  };

  async *#eachEvent(query: EventQuery, options: ReadOptions): AsyncGenerator<MerchantEventResource> {
    for (let after = query.after; ; ) {
      const page = await this.events.list({ ...query, after }, options);
      yield* page.data;
      if (!page.has_more) return;
      after = page.next_after ?? undefined;
    }
  }

  /** A bearer token, cached until shortly before it expires. */
  async issueToken(): Promise<TokenResponse> {
    const cached = await this.#token?.catch(() => undefined);
    if (cached && Date.now() < cached.renewAt) return cached.value;
    this.#token = this.#requestToken();
    return (await this.#token).value;
  }

  /** Signs and creates a payment link. `source` defaults to `api`. */
  async createPaymentLink(input: PaymentLinkInput, options: RequestOptions = {}): Promise<PaymentLinkResponse> {
    const body: Record<string, unknown> = { source: 'api', ...input, svc_key: this.#options.merchantKey };
    body.signature_hash = await signPaymentLinkBody(body, this.#options.clientSecret);
    return this.#call({ method: 'POST', url: this.#url('/api/paymentLink'), schema: PaymentLinkResponse, retry: 'idempotency-key', body: JSON.stringify(body) }, options);
  }

  /** Refunds part or all of what an order holds; answers with every refund of the order. */
  async createRefund(orderId: string, request: CreateRefundRequest, options: RequestOptions = {}): Promise<RefundList> {
    const url = this.#url(`/api/refund/createRefund/${encodeURIComponent(orderId)}`);
    return this.#call({ method: 'POST', url, schema: RefundList, retry: 'idempotency-key', body: JSON.stringify(request), bearer: true }, options);
  }

  /**
   * Accepts a payment held for you (`paid_late`: money that came after its quote ran out, or to a superseded
   * address) while its link is not paid: the payment and the link become paid. Answers with the link.
   * Retrying it is safe: every attempt carries the call's Idempotency-Key, and the gateway answers a retry of an
   * accept that went through with the same link.
   */
  async acceptPayment(paymentId: string, options: RequestOptions = {}): Promise<PaymentLinkResource> {
    const url = this.#url(`/api/payments/${encodeURIComponent(paymentId)}/accept`);
    return this.#call({ method: 'POST', url, schema: PaymentLinkResource, retry: 'idempotency-key', bearer: true }, options);
  }

  /**
   * Cancels an active link that no payment has received money for (docs/api.md, "Cancel a payment link"): it takes no
   * new payment, and money that still reaches its addresses is held for you. Answers with the link (`cancelled`);
   * a link already cancelled answers the same. A paid or expired link, or one a customer has sent money for, is a
   * PayCheckoutApiError with status 409 saying why. Retrying is safe: every attempt carries the call's Idempotency-Key.
   */
  async cancelPaymentLink(ref: string, options: RequestOptions = {}): Promise<PaymentLinkResource> {
    const url = this.#url(`/api/paymentLink/${encodeURIComponent(ref)}/cancel`);
    return this.#call({ method: 'POST', url, schema: PaymentLinkResource, retry: 'idempotency-key', bearer: true }, options);
  }

  /** Every refund of an order, and what is left to refund. */
  async getRefunds(orderId: string, options: ReadOptions = {}): Promise<RefundList> {
    return this.#read(`/api/refund/getDataByTransaction/${encodeURIComponent(orderId)}`, RefundList, options);
  }

  /**
   * An order's refunds as you see them: each with the coins it sends and at what rate, where they go (the customer's
   * claimed address, or the payer's), its status history and note, and what is left to refund.
   */
  async listRefunds(orderId: string, options: ReadOptions = {}): Promise<RefundResourceList> {
    return this.#read(`/api/refunds?order_id=${encodeURIComponent(orderId)}`, RefundResourceList, options);
  }

  /** One refund as you see it (as listRefunds shows each). */
  async getRefund(refundId: string, options: ReadOptions = {}): Promise<RefundResource> {
    return this.#read(`/api/refunds/${encodeURIComponent(refundId)}`, RefundResource, options);
  }

  /**
   * Your payout wallets: on each network watched on a node, the address your refunds are paid from (fund it with the
   * coins and the gas they need), its path from the operator's seed and its balances; and the daily cap they go out within.
   */
  async getPayoutWallets(options: ReadOptions = {}): Promise<PayoutWallets> {
    return this.#read('/api/payouts/wallets', PayoutWallets, options);
  }

  /**
   * Cancels a PENDING refund nothing of which was sent yet (its claim not made, or its payout not signed): it ends
   * FAILED with the reason, and its amount is refundable again. Safe to retry: a second cancel answers 409.
   */
  async cancelRefund(refundId: string, request: CancelRefundRequest = {}, options: RequestOptions = {}): Promise<RefundResource> {
    const url = this.#url(`/api/refunds/${encodeURIComponent(refundId)}/cancel`);
    return this.#call({ method: 'POST', url, schema: RefundResource, retry: 'idempotency-key', body: JSON.stringify(request), bearer: true }, options);
  }

  /** Makes a FAILED refund again: a new PENDING refund of the same payment and amount (`retry_of` names the failed one). */
  async retryRefund(refundId: string, options: RequestOptions = {}): Promise<RefundResource> {
    const url = this.#url(`/api/refunds/${encodeURIComponent(refundId)}/retry`);
    return this.#call({ method: 'POST', url, schema: RefundResource, retry: 'idempotency-key', bearer: true }, options);
  }

  /** One of your payment links as it stands: status, payments with their transactions, refunds. */
  async getPaymentLink(paymentLinkRef: string, options: ReadOptions = {}): Promise<PaymentLinkResource> {
    return this.#read(`/api/paymentLink/${encodeURIComponent(paymentLinkRef)}`, PaymentLinkResource, options);
  }

  /** One page of your payment links, newest first, and the `next_cursor` that asks for the next (null on the last). */
  async listPaymentLinks(query: PaymentLinkQuery = {}, options: ReadOptions = {}): Promise<PaymentLinkList> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    const search = params.size ? `?${params}` : '';
    return this.#read(`/api/paymentLink${search}`, PaymentLinkList, options);
  }

  /** Every payment link the query finds, newest first, fetched a page at a time as you iterate. */
  async *eachPaymentLink(query: PaymentLinkQuery = {}, options: ReadOptions = {}): AsyncGenerator<PaymentLinkResource> {
    for (let cursor = query.cursor; ; ) {
      const page = await this.listPaymentLinks({ ...query, cursor }, options);
      yield* page.payment_links;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** Your payment links for an order, newest first. */
  async findPaymentLinks(merchantOrderId: string, options: ReadOptions = {}): Promise<PaymentLinkResource[]> {
    return (await this.listPaymentLinks({ merchant_order_id: merchantOrderId, limit: 200 }, options)).payment_links;
  }

  /**
   * Adds a webhook endpoint; keep its `secret` to verify deliveries with `verifyWebhook`. Retried under one
   * Idempotency-Key: a retry of an endpoint that was added answers the same endpoint and secret.
   */
  async addWebhookEndpoint(url: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.#call({ method: 'POST', url: this.#url('/api/webhooks/endpoints'), schema: WebhookEndpoint, retry: 'idempotency-key', body: JSON.stringify({ url }), bearer: true }, options);
  }

  /** Removes an endpoint: events from now on are not sent to it. */
  async removeWebhookEndpoint(endpointId: string, options: ReadOptions = {}): Promise<void> {
    await this.#call({ method: 'DELETE', url: this.#url(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}`), schema: undefined, retry: 'never', bearer: true }, options);
  }

  async listWebhookEndpoints(options: ReadOptions = {}): Promise<WebhookEndpoint[]> {
    return (await this.#read('/api/webhooks/endpoints', WebhookEndpointList, options)).endpoints;
  }

  /** An endpoint's delivery log, newest first: attempts, status codes, next retry; the latest 200, or one link's. */
  async getWebhookDeliveries(endpointId: string, options: ReadOptions & { paymentLinkRef?: string } = {}): Promise<WebhookDelivery[]> {
    const search = options.paymentLinkRef === undefined ? '' : `?payment_link_ref=${encodeURIComponent(options.paymentLinkRef)}`;
    return (await this.#read(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries${search}`, WebhookDeliveryList, options)).deliveries;
  }

  /** A delivery: the body it sends (`payload`, as signed) and every attempt (status, the start of the answer, duration, or why none). */
  async getWebhookDelivery(deliveryId: number, options: ReadOptions = {}): Promise<WebhookDeliveryDetail> {
    return this.#read(`/api/webhooks/deliveries/${deliveryId}`, WebhookDeliveryDetail, options);
  }

  /** Sends an endpoint a `test.ping` event, signed and delivered as every event. Not retried: a repeat sends another. */
  async sendTestWebhook(endpointId: string, options: ReadOptions = {}): Promise<WebhookDelivery> {
    return this.#call({ method: 'POST', url: this.#url(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`), schema: WebhookDelivery, retry: 'never', bearer: true }, options);
  }

  /** Sends a delivery again (deliveries are at least once, so a retried request at worst sends it twice). */
  async redeliverWebhook(deliveryId: number, options: ReadOptions = {}): Promise<WebhookDelivery> {
    return this.#call({ method: 'POST', url: this.#url(`/api/webhooks/deliveries/${deliveryId}/redeliver`), schema: WebhookDelivery, retry: 'read', bearer: true }, options);
  }

  /**
   * Rolls the client secret: the answer holds the new one, shown this once; keep it where your servers keep their
   * credentials. This client uses it from now on. The old secret, and the tokens it issued, end now, or after
   * `expiresIn` seconds (at most 7 days) while your other servers change over. Not retried: a repeat would roll again.
   */
  async rollClientSecret(options: ReadOptions & { expiresIn?: number } = {}): Promise<ClientSecretRoll> {
    const body = JSON.stringify(options.expiresIn === undefined ? {} : { expires_in: options.expiresIn });
    const rolled = await this.#call({ method: 'POST', url: this.#url('/api/merchant/client-secret/roll'), schema: ClientSecretRoll, retry: 'never', body, bearer: true }, options);
    this.#options = { ...this.#options, clientSecret: rolled.client_secret };
    this.#token = undefined;
    return rolled;
  }

  async #requestToken() {
    const { clientId, clientSecret, authUrl, baseUrl } = this.#options;
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    const url = new URL('/api/v2/oauth/token', authUrl ?? baseUrl);
    // A second token is harmless, so the token request is retried like a read.
    const value = await this.#call({ method: 'POST', url, schema: TokenResponse, retry: 'read', body, contentType: 'application/x-www-form-urlencoded' }, {});
    return { value, renewAt: Date.now() + value.expires_in * 1000 - TOKEN_MARGIN_MS };
  }

  #read<S extends z.ZodMiniType>(path: string, schema: S, options: ReadOptions): Promise<z.infer<S>> {
    return this.#call({ method: 'GET', url: this.#url(path), schema, retry: 'read', bearer: true }, options);
  }

  #url(path: string): URL {
    return new URL(path, this.#options.baseUrl);
  }

  /** One logical call: attempts until an answer, a final error, or the deadline. */
  async #call<S extends z.ZodMiniType>(call: Call<S>, options: RequestOptions): Promise<z.infer<S>> {
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const maxRetries = call.retry === 'never' ? 0 : (this.#options.maxRetries ?? DEFAULT_MAX_RETRIES);
    const idempotencyKey = call.retry === 'idempotency-key' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    let tokenRenewed = false;
    let attempts = 0;
    const timedOut = (error: unknown) => new PayCheckoutTimeoutError(`no answer within ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`, idempotencyKey, attempts, { cause: error });
    for (let retries = 0; ; ) {
      // The token is shared by concurrent calls, so it is not aborted with this one: this call only stops waiting.
      const token = call.bearer ? (await untilAborted(this.issueToken(), signal).catch((error: unknown) => {
        if (options.signal?.aborted) throw options.signal.reason;
        throw timeout.aborted ? timedOut(error) : error;
      })).access_token : undefined;
      attempts++;
      let answer: { response: Response; text: string } | undefined;
      let failure: unknown;
      try {
        answer = await this.#attempt(call, idempotencyKey, token, signal);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (timeout.aborted) throw timedOut(error);
        failure = error;
      }
      // A token the gateway no longer knows is renewed once, outside the retry budget.
      if (answer?.response.status === 401 && call.bearer && !tokenRenewed) {
        tokenRenewed = true;
        this.#token = undefined;
        continue;
      }
      const retryable = answer ? RETRY_STATUSES.has(answer.response.status) : true;
      if (retryable && retries < maxRetries) {
        const backoff = Math.min(MAX_RETRY_DELAY_MS, (this.#options.initialRetryDelayMs ?? DEFAULT_INITIAL_RETRY_DELAY_MS) * 2 ** retries);
        const asked = answer && retryAfterMs(answer.response.headers.get('Retry-After'), Date.now());
        // Half the backoff, plus a random part of the other half: clients that failed together do not return together.
        const wait = asked ?? backoff / 2 + Math.random() * (backoff / 2);
        if (Date.now() + wait < deadline) {
          retries++;
          try {
            await sleep(wait, signal);
          } catch (error) {
            if (options.signal?.aborted) throw options.signal.reason;
            throw timedOut(error);
          }
          continue;
        }
      }
      if (!answer) throw new PayCheckoutConnectionError(`the gateway could not be reached (${attempts} attempt${attempts === 1 ? '' : 's'})`, idempotencyKey, attempts, { cause: failure });
      return this.#answer(call, answer.response, answer.text, idempotencyKey, attempts);
    }
  }

  async #attempt(call: Call<z.ZodMiniType>, idempotencyKey: string | undefined, token: string | undefined, signal: AbortSignal): Promise<{ response: Response; text: string }> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = call.contentType ?? 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await this.#fetch(call.url, { method: call.method, headers, body: call.body, signal });
    return { response, text: await response.text() };
  }

  #answer<S extends z.ZodMiniType>(call: Call<S>, response: Response, text: string, idempotencyKey: string | undefined, attempts: number): z.infer<S> {
    let body: unknown;
    let json = true;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      json = false;
    }
    if (!response.ok) {
      const problem = Problem.safeParse(body);
      const oauth = problem.success ? undefined : TokenError.safeParse(body);
      const asked = retryAfterMs(response.headers.get('Retry-After'), Date.now());
      throw new PayCheckoutApiError(response.status, problem.success ? problem.data : undefined, oauth?.success ? oauth.data : undefined, idempotencyKey, attempts, asked);
    }
    const where = `${call.method} ${call.url.pathname} answered ${response.status}`;
    if (!json) throw new PayCheckoutResponseError(`${where} with a body that is not JSON`, response.status, [], idempotencyKey, attempts);
    if (!call.schema) return undefined as z.infer<S>;
    const parsed = call.schema.safeParse(body);
    if (parsed.success) return parsed.data as z.infer<S>;
    const issues = fieldErrors(parsed.error);
    throw new PayCheckoutResponseError(`${where} with a body the contract does not allow: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, response.status, issues, idempotencyKey, attempts);
  }
}
