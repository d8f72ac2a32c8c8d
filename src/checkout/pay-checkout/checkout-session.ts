// The checkout session of one <pay-checkout> (pay-checkout.ts): the link's view, loaded by a Task or taken from the
// page; its latest payment from every source (the view, opening a quote, polls, the event stream); the rate-lock
// countdown, what the live region says, and every way back to the merchant. Like RedirectController it has no
// lifecycle of its own: the Task and the controllers it creates register with the host, in this order, before the
// element's own. The element keeps what the customer types and picks, dispatches the session's news as its events,
// and draws; state.ts decides which screen shows.
import { Task } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import type { CheckoutView, Payment } from '../../contract/checkout.js';
import { isWebUrl } from '../../contract/rules.js';
import { checkView } from '../answers.js';
import { CheckoutApiError, checkoutUrls, fetchPayment, fetchView, openPayment, type CheckoutUrls } from '../api.js';
import { CountdownController } from '../controllers/countdown.js';
import { PaymentStreamController } from '../controllers/payment-stream.js';
import { RedirectController } from '../controllers/redirect.js';
import { PayCheckoutBackEvent, PayCheckoutFailureEvent, PayCheckoutSuccessEvent } from '../events.js';
import { formatCrypto, type Locale, type MessageKey, type Params } from '../i18n/index.js';
import type { WalletState } from '../wallets/browser-wallet.js';
import { awaitsConfirmation, findMethod, follows, hasReceived, quoteDeadline, screenOf, supersedes, type Contact, type Screen } from './state.js';

/** Where the script came from: the default gateway (the script-tag file is served by the gateway itself). */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin;
/** The rate-lock countdown is announced at these seconds left only. */
const ANNOUNCE_AT = [300, 60] as const;

/** The element the session runs in: its link attributes, its children (the page's view), its events. */
export interface SessionHost extends ReactiveControllerHost, HTMLElement {
  paymentLinkRef?: string | undefined;
  apiBase?: string | undefined;
}

/** What the element does with the session's news. */
export interface SessionOptions {
  /** The customer's language now: the live region says amounts in it. */
  locale: () => Locale;
  /** The link's view arrived for the first time. */
  onReady: (view: CheckoutView) => void;
  /** A payment appeared or changed status. */
  onStatus: (payment: Payment) => void;
  /** Loading or paying failed. */
  onError: (failure: CheckoutApiError) => void;
}

const failureOf = (error: unknown): CheckoutApiError => (error instanceof CheckoutApiError ? error : new CheckoutApiError('network', String(error)));

export class CheckoutSession {
  view?: CheckoutView;
  payment: Payment | null = null;
  /** Why the link cannot be shown (the error view). */
  failure?: CheckoutApiError;
  /** Why the last action (opening a payment) failed; shown in place. */
  actionError?: CheckoutApiError;
  busy = false;
  /** The customer asked to pick another coin: the coins show until a payment in one is open. */
  changingCoin = false;
  /** A payment from a browser wallet: asked, sent, or why it stopped. */
  walletState: WalletState = { step: 'idle' };
  /** What the polite live region says, kept as a message so that it follows a change of language. */
  announcement?: { key: MessageKey; params?: Params };

  /** The view the page carried (takePageView), until the first load takes it in place of a request. */
  #given?: CheckoutView;
  /** How many payments the stream has brought: an answer to a request sent before its latest is not news (supersedes). */
  #streamed = 0;
  /** #streamed when the view loading now was asked for. */
  #viewAskedAt = 0;
  readonly #viewTask: Task<readonly [CheckoutUrls | undefined], CheckoutView>;
  readonly stream: PaymentStreamController;
  readonly quoteCountdown: CountdownController;
  readonly redirect: RedirectController;

  constructor(
    private readonly host: SessionHost,
    redirectSeconds: number,
    private readonly options: SessionOptions,
  ) {
    this.#viewTask = new Task(host, {
      task: async ([urls], { signal }) => {
        if (!urls) throw new CheckoutApiError('missing_ref', 'No payment-link-ref attribute and no ?ref= in the page URL.');
        const given = this.#given;
        this.#given = undefined;
        this.#viewAskedAt = this.#streamed;
        return given ?? fetchView(urls, signal);
      },
      args: () => [this.#urls] as const,
      argsEqual: ([a], [b]) => a?.view === b?.view,
      onComplete: (view) => this.#applyView(view, this.#viewAskedAt),
      onError: (error) => this.#loadFailed(error),
    });
    this.stream = new PaymentStreamController(host, {
      // The payment is followed while the customer picks another coin too: money may still arrive for it.
      url: () => (follows(screenOf(this.view, this.payment, this.failure)) ? (this.#urls?.events ?? null) : null),
      onPayment: (payment) => this.#setPayment(payment, ++this.#streamed),
      poll: () => this.#poll(),
      resync: () => void this.#viewTask.run(),
    });
    this.quoteCountdown = new CountdownController(host, {
      target: () => quoteDeadline(this.payment),
      thresholds: ANNOUNCE_AT,
      onThreshold: (seconds) => this.announce(seconds === 60 ? 'oneMinuteLeft' : 'minutesLeft', { minutes: Math.round(seconds / 60) }),
      onEnd: () => void this.#poll(),
    });
    this.redirect = new RedirectController(host, redirectSeconds);
  }

  get #ref(): string | undefined {
    return this.host.paymentLinkRef || new URLSearchParams(location.search).get('ref') || undefined;
  }

  get #urls(): CheckoutUrls | undefined {
    const ref = this.#ref;
    return ref ? checkoutUrls(this.host.apiBase || SCRIPT_ORIGIN, ref) : undefined;
  }

  screen(): Screen {
    return screenOf(this.view, this.payment, this.failure, this.changingCoin);
  }

  /**
   * Before the first update: the view the page carries for this link, a `<script type="application/json">` child (the
   * gateway's hosted page puts it there), checked like a fetched one. With it the first frame draws the order, and no
   * request is made.
   */
  takePageView(): void {
    const data = this.host.querySelector(':scope > script[type="application/json"]')?.textContent;
    if (!data) return;
    try {
      const checked = checkView(JSON.parse(data));
      this.#given = checked.success && checked.data.payment_link_ref === this.#ref ? checked.data : undefined;
    } catch {
      return;
    }
    if (this.#given) this.#applyView(this.#given, this.#streamed);
  }

  /** Another link: nothing of the previous one may stay on screen or drive a redirect. */
  reset(): void {
    this.view = undefined;
    this.payment = null;
    this.failure = undefined;
    this.actionError = undefined;
    this.redirect.reset();
  }

  #applyView(view: CheckoutView, askedAt: number): void {
    const first = this.view === undefined;
    this.view = view;
    this.failure = undefined;
    if (view.payment) this.#setPayment(view.payment, askedAt);
    const screen = this.screen();
    // An expired link with nothing left to follow: back to the merchant's failure URL, as after a payment.
    if (screen.name === 'error' && isWebUrl(view.failure_redirect_url)) this.redirect.schedule(this.leave);
    if (!first) return;
    if (screen.name === 'error') this.options.onError(new CheckoutApiError(screen.failure.code, screen.failure.message));
    this.options.onReady(view);
  }

  #loadFailed(error: unknown): void {
    const failure = failureOf(error);
    // A failed re-sync keeps what is on screen: the stream and its polling keep trying.
    if (this.view && (failure.code === 'network' || failure.code === 'malformed')) return;
    this.fail(failure);
  }

  /** The error view, for `failure`. */
  fail(failure: CheckoutApiError): void {
    this.failure = failure;
    this.options.onError(failure);
    this.host.requestUpdate();
  }

  /** Takes a payment from any source (view, POST, GET, stream); `askedAt` is #streamed when it was asked for. */
  #setPayment(payment: Payment, askedAt: number): void {
    const current = this.payment;
    if (!supersedes(current, payment, askedAt < this.#streamed)) return;
    this.payment = payment;
    this.host.requestUpdate();
    if (current?.payment_id !== payment.payment_id) {
      // Another payment (this tab's, or another's): whatever was under way for the last one is over.
      this.walletState = { step: 'idle' };
      this.changingCoin = false;
    }
    if (current?.payment_id === payment.payment_id && current.status === payment.status) {
      // Money seen without a change of status (a partial payment, unconfirmed): said at once, politely.
      if (current.received_crypto !== payment.received_crypto && hasReceived(payment)) {
        this.announce(awaitsConfirmation(payment) ? 'receivedUnconfirmed' : 'received', { amount: formatCrypto(this.options.locale(), payment.received_crypto), asset: payment.asset });
      }
      return;
    }
    // Each status has its message, under the status's own name.
    this.announce(payment.status);
    // The link's view says anew what changes with a payment's status: what closed quotes received, the receipt page.
    if (current) void this.#viewTask.run();
    this.options.onStatus(payment);
    if (payment.status === 'paid' && payment.success_redirect_url && isWebUrl(payment.success_redirect_url)) this.redirect.schedule(this.returnToMerchant);
  }

  /** Asks for the payment (or the view, before one): true when the gateway answered (the stream's `lost`). */
  async #poll(): Promise<boolean> {
    const urls = this.#urls;
    if (!urls) return false;
    if (!this.payment) return this.#viewTask.run().then(() => this.#viewTask.error === undefined);
    const askedAt = this.#streamed;
    try {
      this.#setPayment(await fetchPayment(urls, this.payment.payment_id), askedAt);
      return true;
    } catch (error) {
      // The stream's backoff tries again; an answer, even a refusal, is the gateway reached.
      return error instanceof CheckoutApiError && error.code !== 'network';
    }
  }

  announce(key: MessageKey, params?: Params): void {
    this.announcement = { key, params };
    this.host.requestUpdate();
  }

  // ---- actions

  /** Opens a payment in `asset` on `network` with the method `methodKey` names (else the link's first). */
  async open(methodKey: string, asset: Payment['asset'], network: Payment['network'], customer?: Partial<Contact>): Promise<void> {
    const urls = this.#urls;
    const method = findMethod(this.view, methodKey) ?? this.view?.methods[0];
    if (!urls || !method || this.busy) return;
    this.busy = true;
    this.actionError = undefined;
    this.announce('opening');
    const askedAt = this.#streamed;
    try {
      this.#setPayment(await openPayment(urls, { pmt_channel: method.pmt_channel, pmt_method: method.pmt_method, asset, network, ...(customer && { customer }) }), askedAt);
      // The same coin again: the gateway answers with the payment still open, which takes the screen back.
      this.changingCoin = false;
    } catch (error) {
      const failure = failureOf(error);
      this.actionError = failure;
      this.options.onError(failure);
      // Paid or expired meanwhile (another tab, the chain), or the asset's network out of sight: show what the gateway says now.
      if (failure.code === 'conflict' || failure.code === 'link_expired' || failure.code === 'unavailable') void this.#viewTask.run();
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
  }

  /** Back to the coins: picking one opens a payment in it (the gateway closes this one's quote). */
  changeCoin(): void {
    this.changingCoin = true;
    this.actionError = undefined;
    this.host.requestUpdate();
  }

  returnToMerchant = (): void => {
    const payment = this.payment;
    const url = payment?.success_redirect_url;
    this.redirect.cancel();
    if (!payment || payment.status !== 'paid' || !url) return;
    this.redirect.navigate(new PayCheckoutSuccessEvent({ payment, url }), url);
  };

  leave = (): void => {
    const view = this.view;
    this.redirect.cancel();
    if (!view) return;
    const reason = view.status === 'expired' ? 'link_expired' : view.status === 'cancelled' ? 'link_cancelled' : 'cancelled';
    this.redirect.navigate(new PayCheckoutFailureEvent({ reason, url: view.failure_redirect_url }), view.failure_redirect_url);
  };

  back = (): void => {
    const url = this.view?.merchant_details.back_url;
    if (url) this.redirect.navigate(new PayCheckoutBackEvent({ url }), url);
  };

  stay = (): void => this.redirect.cancel();

  retry = (): void => {
    this.failure = undefined;
    void this.#viewTask.run();
  };
}
