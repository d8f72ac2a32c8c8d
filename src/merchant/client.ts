// The merchant SDK: a typed Node client for the gateway's merchant API (seed section 4).
import { randomUUID } from 'node:crypto';
import type {
  CreateRefundRequest,
  PaymentLinkList,
  PaymentLinkResource,
  WebhookDelivery,
  WebhookEndpoint,
  PaymentLinkInput,
  PaymentLinkResponse,
  Problem,
  RefundList,
  TokenError,
  TokenResponse,
} from '../contract/index.js';
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
}

export interface RequestOptions {
  /** Sent as `Idempotency-Key`; a retry with the same key returns the first response. Generated when absent. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** An error answer of the gateway, with its problem details (or OAuth error) as sent. */
export class PayCheckoutError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly oauthError: TokenError | undefined,
  ) {
    super(problem?.detail ?? oauthError?.error_description ?? oauthError?.error ?? `gateway answered ${status}`);
    this.name = 'PayCheckoutError';
  }

  /** The `{path, message}` list of a validation error, empty otherwise. */
  get fieldErrors() {
    return this.problem?.errors ?? [];
  }
}

/** A token is renewed this long before it expires, so a request never carries one that dies in flight. */
const TOKEN_MARGIN_MS = 60_000;

export class MerchantClient {
  readonly #options: MerchantClientOptions;
  readonly #fetch: typeof fetch;
  #token: Promise<{ value: TokenResponse; renewAt: number }> | undefined;

  constructor(options: MerchantClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
  }

  /** A bearer token, cached until shortly before it expires. */
  async issueToken(): Promise<TokenResponse> {
    const cached = await this.#token?.catch(() => undefined);
    if (cached && Date.now() < cached.renewAt) return cached.value;
    this.#token = this.#requestToken();
    return (await this.#token).value;
  }

  /** Signs and creates a payment link (seed 4.3). `source` defaults to `api`. */
  async createPaymentLink(input: PaymentLinkInput, options: RequestOptions = {}): Promise<PaymentLinkResponse> {
    const body: Record<string, unknown> = { source: 'api', ...input, svc_key: this.#options.merchantKey };
    body.signature_hash = signPaymentLinkBody(body, this.#options.clientSecret);
    return this.#json<PaymentLinkResponse>(this.#url('/api/paymentLink'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': options.idempotencyKey ?? randomUUID() },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  /** Refunds part or all of a paid order (seed 4.1); answers with every refund of the order. */
  async createRefund(orderId: string, request: CreateRefundRequest, options: RequestOptions = {}): Promise<RefundList> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    return this.#authorized<RefundList>(`/api/refund/createRefund/${encodeURIComponent(orderId)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(request),
      signal: options.signal,
    });
  }

  /** Every refund of an order, and what is left to refund (seed 4.2). */
  async getRefunds(orderId: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<RefundList> {
    return this.#authorized<RefundList>(`/api/refund/getDataByTransaction/${encodeURIComponent(orderId)}`, { signal: options.signal });
  }

  /** One of your payment links as it stands: status, payments with their transactions, refunds. */
  async getPaymentLink(paymentLinkRef: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<PaymentLinkResource> {
    return this.#authorized(`/api/paymentLink/${encodeURIComponent(paymentLinkRef)}`, { signal: options.signal });
  }

  /** Your latest payment links, newest first (`limit` 1 to 200, default 50): a transactions page. */
  async listPaymentLinks(options: { limit?: number; signal?: AbortSignal } = {}): Promise<PaymentLinkResource[]> {
    const query = options.limit === undefined ? '' : `?limit=${options.limit}`;
    const list = await this.#authorized<PaymentLinkList>(`/api/paymentLink${query}`, { signal: options.signal });
    return list.payment_links;
  }

  /** Your payment links for an order, newest first. */
  async findPaymentLinks(merchantOrderId: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<PaymentLinkResource[]> {
    const list = await this.#authorized<PaymentLinkList>(`/api/paymentLink?merchant_order_id=${encodeURIComponent(merchantOrderId)}`, { signal: options.signal });
    return list.payment_links;
  }

  /** Adds a webhook endpoint; keep its `secret` to verify deliveries with `verifyWebhook`. */
  async addWebhookEndpoint(url: string): Promise<WebhookEndpoint> {
    return this.#authorized('/api/webhooks/endpoints', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) });
  }

  /** Removes an endpoint: events from now on are not sent to it. */
  async removeWebhookEndpoint(endpointId: string): Promise<void> {
    await this.#authorized<undefined>(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}`, { method: 'DELETE' });
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    return (await this.#authorized<{ endpoints: WebhookEndpoint[] }>('/api/webhooks/endpoints', {})).endpoints;
  }

  /** An endpoint's delivery log, newest first: attempts, status codes, next retry. */
  async getWebhookDeliveries(endpointId: string): Promise<WebhookDelivery[]> {
    return (await this.#authorized<{ deliveries: WebhookDelivery[] }>(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries`, {})).deliveries;
  }

  async redeliverWebhook(deliveryId: number): Promise<WebhookDelivery> {
    return this.#authorized(`/api/webhooks/deliveries/${deliveryId}/redeliver`, { method: 'POST' });
  }

  async #requestToken() {
    const { clientId, clientSecret } = this.#options;
    const value = await this.#json<TokenResponse>(new URL('/api/v2/oauth/token', this.#options.authUrl ?? this.#options.baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    return { value, renewAt: Date.now() + value.expires_in * 1000 - TOKEN_MARGIN_MS };
  }

  /** A Bearer request; a token the gateway no longer knows is renewed once. */
  async #authorized<T>(path: string, init: RequestInit): Promise<T> {
    const send = async () => {
      const token = await this.issueToken();
      return this.#json<T>(this.#url(path), { ...init, headers: { ...init.headers, Authorization: `Bearer ${token.access_token}` } });
    };
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof PayCheckoutError && error.status === 401)) throw error;
      this.#token = undefined;
      return send();
    }
  }

  #url(path: string): URL {
    return new URL(path, this.#options.baseUrl);
  }

  async #json<T>(url: URL, init: RequestInit): Promise<T> {
    const response = await this.#fetch(url, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      if (response.ok) throw new SyntaxError(`the gateway answered ${response.status} with a body that is not JSON`);
    }
    if (response.ok) return body as T;
    const isProblem = typeof body === 'object' && body !== null && 'status' in body;
    throw new PayCheckoutError(response.status, isProblem ? (body as Problem) : undefined, isProblem ? undefined : (body as TokenError));
  }
}
