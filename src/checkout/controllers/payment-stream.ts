// The live payment status (docs/api.md, the checkout's event stream): one EventSource per element on the link's event stream.
// When the stream fails, the controller polls (GET) with exponential backoff and retries the stream each time;
// it re-syncs when the page becomes visible again or the browser comes back online. The host says what to
// follow through `url()`, read on every update; null closes the stream. A poll that cannot reach the gateway
// either makes the connection `lost` (the host says so): from then on it probes every OFFLINE_RETRY_MS, since a
// phone that comes back may never fire `online`, until a poll or the stream gets through.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Payment } from '../../contract/checkout.js';
import { parsePaymentEvent } from '../api.js';

export interface PaymentStreamOptions {
  /** The events URL to follow, or null for none. */
  url: () => string | null;
  onPayment: (payment: Payment) => void;
  /** Fetches the payment by plain GET while the stream is down: true when the gateway answered. */
  poll: () => Promise<boolean>;
  /** Fetches the whole view again after the page wakes up or the network comes back. */
  resync: () => void;
}

export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;
/** A stream still not open after this long is treated as failed (a server that accepts but never answers). */
export const CONNECT_TIMEOUT_MS = 15_000;
/**
 * While the gateway cannot be reached at all, a probe (one GET, then the stream) this often: the view is current
 * within about this long of the network coming back, at one small request per probe.
 */
export const OFFLINE_RETRY_MS = 2_000;

export class PaymentStreamController implements ReactiveController {
  #source: EventSource | undefined;
  #url: string | null = null;
  /** The id of the last event seen: a new connection resumes after it (the gateway honours `lastEventId`). */
  #lastEventId: string | undefined;
  #retryMs = FIRST_RETRY_MS;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #connected = false;
  #lost = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: PaymentStreamOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
    document.addEventListener('visibilitychange', this.#wake);
    window.addEventListener('online', this.#wake);
    this.#sync(true);
  }

  hostUpdated(): void {
    this.#sync(false);
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#wake);
    window.removeEventListener('online', this.#wake);
    this.#close();
  }

  /** Whether the stream is open or opening (tests and the demo read it). */
  get live(): boolean {
    return this.#source !== undefined && this.#source.readyState !== EventSource.CLOSED;
  }

  /** The last poll could not reach the gateway, and nothing has got through since. */
  get lost(): boolean {
    return this.#lost;
  }

  /** The customer's "Check again": fetches the view and retries the stream now. */
  checkNow(): void {
    if (this.#url === null) return;
    this.options.resync();
    if (!this.#source) {
      clearTimeout(this.#retry);
      this.#retryMs = FIRST_RETRY_MS;
      this.#open();
    }
  }

  #setLost(lost: boolean): void {
    if (lost === this.#lost) return;
    this.#lost = lost;
    this.host.requestUpdate();
  }

  #sync(reopen: boolean): void {
    const url = this.options.url();
    if (url === this.#url && !reopen) return;
    if (url !== this.#url) this.#lastEventId = undefined;
    this.#close();
    this.#url = url;
    this.#retryMs = FIRST_RETRY_MS;
    if (url !== null && this.#connected) this.#openAfterPaint(url);
  }

  /**
   * A new stream waits until the frame of the update that asked for it is painted (the QR, when a payment has just
   * opened), then a task: it is not needed to draw that frame. The stream sends the payment's current state first,
   * so nothing is missed meanwhile.
   */
  #openAfterPaint(url: string): void {
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (this.#connected && this.#url === url && !this.#source) this.#open();
      }),
    );
  }

  #open(): void {
    if (this.#url === null) return;
    const url = new URL(this.#url, document.baseURI);
    if (this.#lastEventId !== undefined) url.searchParams.set('lastEventId', this.#lastEventId);
    const source = new EventSource(url);
    this.#source = source;
    const fail = () => {
      clearTimeout(connecting);
      if (this.#source !== source) return;
      source.close();
      this.#source = undefined;
      this.#scheduleRetry();
    };
    const connecting = setTimeout(fail, CONNECT_TIMEOUT_MS);
    source.addEventListener('open', () => {
      clearTimeout(connecting);
      this.#retryMs = FIRST_RETRY_MS;
      this.#setLost(false);
    });
    source.addEventListener('payment', (event) => {
      if (event.lastEventId) this.#lastEventId = event.lastEventId;
      const payment = parsePaymentEvent(event.data);
      if (payment) this.options.onPayment(payment);
    });
    // The browser's own reconnection gives no fallback while the server is down: take over instead.
    source.addEventListener('error', fail);
  }

  #scheduleRetry(): void {
    clearTimeout(this.#retry);
    const delay = this.#lost ? Math.min(this.#retryMs, OFFLINE_RETRY_MS) : this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.options.poll().then((answered) => {
        this.#setLost(!answered);
        if (this.#connected && this.#url !== null && !this.#source) this.#open();
      });
    }, delay);
  }

  /** Back to the page or the network: fetch what was missed now, and retry a failed stream at once. */
  #wake = (): void => {
    if (document.visibilityState === 'visible') this.checkNow();
  };

  #close(): void {
    this.#setLost(false);
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#source?.close();
    this.#source = undefined;
  }
}
