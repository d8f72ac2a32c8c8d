// The checkout API as the element calls it (docs/api.md). Every answer is checked against the
// checkout contract (answers.ts, the same rules as the gateway's zod schemas): a gateway that answers something
// else is an error the customer is told about, never a half-drawn page.
import type { CheckoutView, OpenPaymentRequest, Payment } from '../contract/checkout.js';
import { checkPayment, checkProblem, checkView, type Checked } from './answers.js';

export type CheckoutErrorCode =
  /** No `payment-link-ref` attribute and no `?ref=` in the page URL. */
  | 'missing_ref'
  | 'not_found'
  | 'link_expired'
  /** The merchant cancelled the link: it takes no payment (the link's view says so; opening a payment is a 410). */
  | 'link_cancelled'
  /** The gateway refused a payment (409: already paid, funds on another asset). */
  | 'conflict'
  /** The gateway refused the request's fields (400, 422). */
  | 'invalid'
  /** The gateway cannot see the network of the asset asked for (503 to opening a payment): another asset may do. */
  | 'unavailable'
  /** The gateway could not be reached, or failed (5xx). */
  | 'network'
  /** The answer does not match the contract. */
  | 'malformed';

export class CheckoutApiError extends Error {
  constructor(
    readonly code: CheckoutErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CheckoutApiError';
  }
}

function codeOf(status: number, method?: string): CheckoutErrorCode {
  if (status === 404) return 'not_found';
  if (status === 410) return 'link_expired';
  if (status === 409) return 'conflict';
  if (status === 400 || status === 422) return 'invalid';
  // Only opening a payment has a method (POST): its 503 is the asset's network out of the gateway's sight, not the gateway.
  if (status === 503 && method) return 'unavailable';
  return 'network';
}

/** A request that gets no answer in this long fails as a network error (and is retried), rather than hanging. */
export const REQUEST_TIMEOUT_MS = 20_000;

async function request<T>(check: (body: unknown) => Checked<T>, url: string, init: RequestInit): Promise<T> {
  const { signal } = init;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
  const cancel = () => timeout.abort();
  signal?.addEventListener('abort', cancel);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, { ...init, signal: timeout.signal, headers: { Accept: 'application/json', ...init.headers } });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CheckoutApiError('network', `The gateway could not be reached (${(error as Error).message}).`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
  if (!response.ok) {
    const problem = checkProblem(body);
    const detail = problem.success ? (problem.data.detail ?? problem.data.title) : `HTTP ${response.status}`;
    throw new CheckoutApiError(codeOf(response.status, init.method), detail, response.status);
  }
  const checked = check(body);
  if (!checked.success) throw new CheckoutApiError('malformed', `The gateway's answer does not match the checkout contract (${checked.issues.join(', ')}).`, response.status);
  return checked.data;
}

/** The URLs of one link's checkout API. */
export function checkoutUrls(apiBase: string, ref: string) {
  const link = `${apiBase.replace(/\/+$/, '')}/api/checkout/${encodeURIComponent(ref)}`;
  return {
    view: link,
    payments: `${link}/payments`,
    payment: (paymentId: string) => `${link}/payments/${encodeURIComponent(paymentId)}`,
    events: `${link}/events`,
  };
}

export type CheckoutUrls = ReturnType<typeof checkoutUrls>;

export const fetchView = (urls: CheckoutUrls, signal?: AbortSignal): Promise<CheckoutView> =>
  request(checkView, urls.view, { signal, cache: 'no-store' });

export const fetchPayment = (urls: CheckoutUrls, paymentId: string, signal?: AbortSignal): Promise<Payment> =>
  request(checkPayment, urls.payment(paymentId), { signal, cache: 'no-store' });

/**
 * Opens a payment, or gets back the one still open in the same asset (the gateway never makes a second). The JSON
 * goes as a Blob without a type, so no Content-Type is sent: a request CORS lets through without a preflight, one
 * round trip fewer before the QR on a merchant's page (the gateway reads an untyped body as JSON, docs/api.md).
 */
export const openPayment = (urls: CheckoutUrls, body: OpenPaymentRequest, signal?: AbortSignal): Promise<Payment> =>
  request(checkPayment, urls.payments, { method: 'POST', signal, body: new Blob([JSON.stringify(body)]) });

/** A payment pushed on the event stream, checked like every other answer; undefined when it does not parse. */
export function parsePaymentEvent(data: string): Payment | undefined {
  try {
    const checked = checkPayment(JSON.parse(data));
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}
