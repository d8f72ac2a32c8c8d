// <pay-checkout>: the customer's checkout for one payment link (README, the element). Importing this module
// defines nothing; src/checkout/define.ts registers the tag. The class holds the properties, the state, the
// controllers and the loading Task; state.ts decides which screen shows, views/ draw them.
import { Task } from '@lit/task';
import { adoptStyles, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { CheckoutView, Payment } from '../../contract/checkout.js';
import { isWebUrl } from '../../contract/rules.js';
import { checkView } from '../answers.js';
import { CheckoutApiError, checkoutUrls, fetchPayment, fetchView, openPayment, type CheckoutUrls } from '../api.js';
import { ClipboardController } from '../controllers/clipboard.js';
import { CountdownController } from '../controllers/countdown.js';
import { DeferredModuleController } from '../controllers/deferred-module.js';
import { DelayController } from '../controllers/delay.js';
import { PaymentStreamController } from '../controllers/payment-stream.js';
import { RedirectController } from '../controllers/redirect.js';
import { ViewFocusController } from '../controllers/view-focus.js';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.js';
import type { WalletState } from '../wallets/browser-wallet.js';
import {
  PayCheckoutBackEvent,
  PayCheckoutErrorEvent,
  PayCheckoutFailureEvent,
  PayCheckoutReadyEvent,
  PayCheckoutStatusEvent,
  PayCheckoutSuccessEvent,
} from '../events.js';
import { format, formatCrypto, formatRate, formatRegion, formatTime, formatVnd, toLocale, type Locale, type MessageKey, type Params } from '../i18n/index.js';
import { styles } from './pay-checkout.styles.js';
import {
  assetKey,
  awaitsConfirmation,
  chooseMethod,
  contactFormOpen,
  contactFromBilling,
  contactRequired,
  keptContact,
  creditOf,
  defaultAsset,
  findMethod,
  firstInvalid,
  follows,
  hasReceived,
  methodKey,
  namedAsset,
  parseAssetKey,
  quoteDeadline,
  screenOf,
  supersedes,
  validateContact,
  type Contact,
  type ContactErrors,
  type ContactField,
  type Screen,
} from './state.js';
import { errorView } from './views/error.js';
import { loadingView } from './views/loading.js';
import { orderView } from './views/order.js';
import { footer, header, type Ui } from './views/parts.js';
import { offlineBanner } from './views/occasional.js';
import type { Copyable } from './views/payment.js';

export type { CheckoutViewName } from './state.js';

/** Where the script came from: the default gateway (the script-tag file is served by the gateway itself). */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin;
/** Seconds between "paid" (or a link found expired) and the automatic return to the merchant: time to read the receipt or stay. */
export const REDIRECT_SECONDS = 10;
/**
 * How long the first answer may take before the loading view is drawn: a gateway that answers sooner (on a phone,
 * most do) has its order drawn as the element's first content, without a loading frame before it.
 */
export const LOADING_DELAY_MS = 300;
/** A window this narrow is a phone's: the order's lines start folded (the styles use the same width). */
const COMPACT_MEDIA = '(max-width: 480px)';
/** Where the session keeps the contact typed for a link (sessionStorage). */
const contactKey = (ref: string) => `pay-checkout:contact:${ref}`;
/** The rate-lock countdown is announced at these seconds left only. */
const ANNOUNCE_AT = [300, 60] as const;

/**
 * @tagname pay-checkout
 * @summary Crypto checkout for a VND payment link: order summary, contact, asset choice, QR payment with live status.
 *
 * @fires pay-checkout-ready - The link is loaded. `detail: {view}`.
 * @fires pay-checkout-status - A payment appeared or changed status. `detail: {payment}`.
 * @fires pay-checkout-success - Paid; about to go to the signed success URL. Cancelable. `detail: {payment, url}`.
 * @fires pay-checkout-failure - The customer gave up or the link expired; about to go to the signed failure URL. Cancelable. `detail: {reason, url}`.
 * @fires pay-checkout-back - The Back button; about to go to the merchant's `back_url`. Cancelable. `detail: {url}`.
 * @fires pay-checkout-error - Loading or paying failed. `detail: {code, message}`.
 *
 * @csspart card - The root of every view; `data-view` names the view.
 * @csspart header - Merchant name, logo, the order, the sandbox badge and the language switch.
 * @csspart badge - The sandbox badge.
 * @csspart language-switch - Switches between Tiếng Việt and English.
 * @csspart summary - The order summary.
 * @csspart details - The order's lines and subtotals, folded on a phone.
 * @csspart line - One order line.
 * @csspart total - The total row.
 * @csspart shipping - The shipping details.
 * @csspart back-button - Back to the merchant.
 * @csspart contact - The contact step.
 * @csspart methods - The payment method (when there are several) and asset step.
 * @csspart asset-option - One asset card.
 * @csspart pay-button - The Pay button.
 * @csspart qr - The QR code canvas.
 * @csspart qr-note - For a QR that holds only the address (TRON): the amount must be typed.
 * @csspart amount-crypto - The crypto amount and asset code.
 * @csspart received - What has arrived so far (a partial payment).
 * @csspart missing - An underpayment: exactly what is missing, by when, and the ways on.
 * @csspart network - The network chip with its warning beside it.
 * @csspart network-chip - The network to choose in the wallet or exchange, with its token standard.
 * @csspart amount-remaining - The amount still to send once part has arrived.
 * @csspart amount-vnd - The amount to send in VND (the remainder once part has arrived).
 * @csspart address - The one-time address.
 * @csspart copy-address - Copies the address.
 * @csspart copy-amount - Copies the amount to send.
 * @csspart wallet-links - The wallet apps' links (after the address; before the QR on a touch screen or a phone-sized window).
 * @csspart wallet-link - Opens the payment in a wallet app (the payment URI, or a wallet's own send link).
 * @csspart change-coin - Back to the coins, to pay in another.
 * @csspart browser-wallets - The browser wallets' buttons and what the payment in one is doing.
 * @csspart wallet-button - Pays from one browser wallet (EIP-6963, EIP-1193), named by it.
 * @csspart more-wallets - The disclosure (`<details>`) holding the wallet buttons past the first four.
 * @csspart wallet-status - Confirm in the wallet, sent, or why it stopped.
 * @csspart credit - What the order received through quotes now closed, and what is left.
 * @csspart network-warning - The only network to use.
 * @csspart fee-note - An exchange's withdrawal fee comes on top (an asset with no fee configured).
 * @csspart from-exchange - "I pay from an exchange": the disclosure with the amount to type so that the amount due arrives.
 * @csspart amount-to-type - That amount (`data-amount-to-type` holds it as the gateway writes amounts).
 * @csspart copy-amount-to-type - Copies it.
 * @csspart fee-line - The exchange's usual fee and the tolerance, in one line.
 * @csspart countdown - The rate-lock or redirect countdown.
 * @csspart status - The polite live region.
 * @csspart offline - The gateway cannot be reached: said while the element keeps trying.
 * @csspart check-again - Tries to reach the gateway now.
 * @csspart confirmations - Confirmations seen of required.
 * @csspart success-mark - The paid view's tick, above its heading.
 * @csspart receipt - Paid and paid late: order, amount, network, transactions, time.
 * @csspart tx-hash - One transaction hash of the receipt.
 * @csspart copy-hash - Copies a transaction hash.
 * @csspart explorer-link - The transaction's page on the network's explorer.
 * @csspart receipt-link - The receipt page, to open again, print or save.
 * @csspart paid-at - When the payment was paid.
 * @csspart overpaid-amount - How much more than due arrived.
 * @csspart new-quote-button - Asks for a new quote after the old one expired.
 * @csspart leave-button - Gives up: back to the merchant's failure URL.
 * @csspart return-button - Paid: back to the merchant's success URL.
 * @csspart stay-button - Paid: stops the automatic return.
 * @csspart retry-button - Loads again after an error.
 * @csspart error - An error message.
 * @csspart footer - The help link and the "powered by" line.
 * @csspart help-link - Opens the merchant's `back_url` in a new tab.
 * @csspart powered-by - Names the checkout's maker.
 *
 * @cssprop --pay-checkout-accent - Buttons, selection and links.
 * @cssprop --pay-checkout-accent-text - Text on the accent colour.
 * @cssprop --pay-checkout-background - The card.
 * @cssprop --pay-checkout-surface - The hosted page and inner panels.
 * @cssprop --pay-checkout-text - Text.
 * @cssprop --pay-checkout-muted - Secondary text.
 * @cssprop --pay-checkout-border - Borders.
 * @cssprop --pay-checkout-danger - Errors.
 * @cssprop --pay-checkout-success - Success marks.
 * @cssprop --pay-checkout-warning-background - The network warning and the sandbox badge.
 * @cssprop --pay-checkout-warning-text - Their text.
 * @cssprop --pay-checkout-focus - The focus ring.
 * @cssprop --pay-checkout-radius - Corner radius of the card.
 * @cssprop --pay-checkout-font-family - Font.
 * @cssprop --pay-checkout-max-width - Width of the card on the hosted page.
 * @cssprop --pay-checkout-skeleton-height - The card's height before its view is drawn (its skeleton).
 */
export class PayCheckout extends LitElement {
  static override styles = styles;

  /** The payment link to show; without it, the `ref` query parameter of the page URL. */
  @property({ attribute: 'payment-link-ref' }) paymentLinkRef?: string;

  /** The gateway's origin; without it, the origin this script was loaded from. */
  @property({ attribute: 'api-base' }) apiBase?: string;

  /**
   * The layout. Absent or present, the inline card that fits its container (from 320 px), from the first frame;
   * `embedded="false"`, the full hosted page with the merchant as its h1 (the gateway's `/checkout` page sets it).
   * The link's `is_checkout_embed` tells the merchant's integration which to use; it never changes the layout
   * under the customer's eyes once the link has loaded.
   */
  @property({ converter: { fromAttribute: (value: string | null) => (value === null ? undefined : value !== 'false') } })
  embedded?: boolean;

  /**
   * `vi` or `en`; without it, the locale of the link's billing address, else the browser's language. The customer
   * can switch language in the card; setting this attribute again overrides their choice.
   */
  @property() locale?: string;

  /** The payment channel picked first. */
  @property({ attribute: 'pmt-channel' }) pmtChannel = 'PROVIDER';

  /** The payment method picked first. */
  @property({ attribute: 'pmt-method' }) pmtMethod = 'PROVIDER_CRYPTO';

  /**
   * Forces `light` or `dark`. Without it, an embedded card is light (it sits in the shop's page, whose theme the
   * system's setting does not tell), and the hosted page follows the system's `prefers-color-scheme`. Read by CSS only.
   */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  @state() private view?: CheckoutView;
  @state() private payment: Payment | null = null;
  /** Why the link cannot be shown (the error view). */
  @state() private failure?: CheckoutApiError;
  /** Why the last action (opening a payment) failed; shown in place. */
  @state() private actionError?: CheckoutApiError;
  @state() private busy = false;
  @state() private contactOpen = false;
  @state() private contact: Contact = { name: '', email: '', phone: '' };
  @state() private invalid: ContactErrors = {};
  @state() private methodKey = '';
  @state() private assetKey = '';
  /** What the polite live region says, kept as a message so that it follows a change of language. */
  @state() private announcement?: { key: MessageKey; params?: Params };
  /** A phone-sized window when the link loaded: the order's lines start folded. */
  @state() private compact = false;
  /** The language the customer picked in the card. */
  @state() private chosenLocale?: Locale;
  /** The customer asked to pick another coin: the coins show until a payment in one is open. */
  @state() private changingCoin = false;
  /** A payment from a browser wallet: asked, sent, or why it stopped. */
  @state() private walletState: WalletState = { step: 'idle' };

  /** The view the page carried (#pageView), until the first load takes it in place of a request. */
  #given?: CheckoutView;
  /** How many payments the stream has brought: an answer to a request sent before its latest is not news (supersedes). */
  #streamed = 0;
  /** #streamed when the view loading now was asked for. */
  #viewAskedAt = 0;

  #viewTask = new Task(this, {
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

  // Controllers register themselves with the element: they open, follow and close with it.
  private readonly stream = new PaymentStreamController(this, {
    // The payment is followed while the customer picks another coin too: money may still arrive for it.
    url: () => (follows(screenOf(this.view, this.payment, this.failure)) ? (this.#urls?.events ?? null) : null),
    onPayment: (payment) => this.#setPayment(payment, ++this.#streamed),
    poll: () => this.#poll(),
    resync: () => void this.#viewTask.run(),
  });

  #quoteCountdown = new CountdownController(this, {
    target: () => quoteDeadline(this.payment),
    thresholds: ANNOUNCE_AT,
    onThreshold: (seconds) => this.#announce(seconds === 60 ? 'oneMinuteLeft' : 'minutesLeft', { minutes: Math.round(seconds / 60) }),
    onEnd: () => void this.#poll(),
  });

  #redirect = new RedirectController(this, REDIRECT_SECONDS);

  #clipboard = new ClipboardController<Copyable>(this, {
    // The amount to type at an exchange is an amount too.
    onCopied: (what) => this.#announce(what === 'typed' ? 'amountCopied' : `${what}Copied`),
    onFailed: () => this.#announce('copyFailed'),
  });

  private readonly viewFocus = new ViewFocusController(this, {
    view: () => this.#shown(),
    loading: 'loading',
    heading: () => this.renderRoot.querySelector<HTMLElement>('h2'),
    card: () => this.renderRoot.querySelector<HTMLElement>('[part~="card"]'),
  });

  /** The browser wallets announced on the page (EIP-6963). */
  #discovery = new WalletDiscoveryController(this);

  /** Paying from one of them: a chunk loaded only when one is announced and the payment is on an EVM network. */
  #walletChunk = new DeferredModuleController(this, {
    load: () => import('../wallets/browser-wallet.js'),
    preload: () => false,
    onError: (error) => this.#chunkFailed(error),
  });

  /** "I pay from an exchange" (a chunk): in idle time once a payment is open; the payment view draws it once here. */
  #fromExchange = new DeferredModuleController(this, {
    load: () => import('./views/from-exchange.js'),
    preload: () => this.payment !== null,
    // A help beside the QR, not a view: one that does not arrive (offline) leaves the payment view as it is, with the
    // QR; the next update asks again.
    onError: () => undefined,
  });

  /** Until it has passed, nothing is drawn while the first view loads (LOADING_DELAY_MS). */
  #loadingDelay = new DelayController(this, LOADING_DELAY_MS);

  /** The payment view and the QR encoder: loaded in idle time once the link is shown, or when needed. */
  #afterOrder = new DeferredModuleController(this, {
    load: () => import('./views/after-order.js'),
    preload: () => this.view !== undefined,
    warm: (module) => module.warmUp(),
    onError: (error) => this.#chunkFailed(error),
  });

  /** The views once money moved or the quote ran out (a chunk beside the script): in idle time once a payment is open. */
  #later = new DeferredModuleController(this, {
    // Its views' styles come with it: adopted beside the element's own as soon as it is here.
    load: () => import('./views/later.js').then((module) => (adoptStyles(this.renderRoot as ShadowRoot, [...PayCheckout.elementStyles, module.laterStyles]), module)),
    preload: () => this.payment !== null,
    onError: (error) => this.#chunkFailed(error),
  });

  get #ref(): string | undefined {
    return this.paymentLinkRef || new URLSearchParams(location.search).get('ref') || undefined;
  }

  get #urls(): CheckoutUrls | undefined {
    const ref = this.#ref;
    return ref ? checkoutUrls(this.apiBase || SCRIPT_ORIGIN, ref) : undefined;
  }

  get #locale(): Locale {
    return this.chosenLocale ?? toLocale(this.locale) ?? toLocale(this.view?.billing_details?.billing_address?.locale) ?? toLocale(navigator.language) ?? 'en';
  }

  #screen(): Screen {
    return screenOf(this.view, this.payment, this.failure, this.changingCoin);
  }

  /** The modules that draw a screen, beside the element's own. */
  #modulesOf(screen: Screen): { module: unknown; load(): void }[] {
    // Once money arrived, what arrived, what is missing and the credit of closed quotes come with the later chunk
    // (views/remainder.ts, views/credit.ts).
    if (screen.name === 'payment' || screen.name === 'underpaid') return hasReceived(screen.payment) || creditOf(screen.view) ? [this.#afterOrder, this.#later] : [this.#afterOrder];
    if (screen.name === 'order') return creditOf(screen.view) ? [this.#later] : [];
    // The late view, like those after it, is in the chunk.
    return screen.name === 'loading' || screen.name === 'error' ? [] : [this.#later];
  }

  /** The view on screen: `loading` while the screen's modules are still being loaded. */
  #shown(screen = this.#screen()): Screen['name'] {
    return this.#modulesOf(screen).some((m) => !m.module) ? 'loading' : screen.name;
  }

  /**
   * The view the page carries for this link: a `<script type="application/json">` child (the gateway's hosted page
   * puts it there), checked like a fetched one. With it the first frame draws the order, and no request is made.
   */
  #pageView(): CheckoutView | undefined {
    const data = this.querySelector(':scope > script[type="application/json"]')?.textContent;
    if (!data) return undefined;
    try {
      const checked = checkView(JSON.parse(data));
      return checked.success && checked.data.payment_link_ref === this.#ref ? checked.data : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The hosted page paints the order before the script in a declarative shadow root (src/sandbox/pages/checkout-summary.ts):
   * emptied here, in the task whose microtasks render this element's first frame into the same root, so no frame shows neither.
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    this.shadowRoot?.replaceChildren();
    return super.createRenderRoot();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.hasUpdated) {
      this.#given = this.#pageView();
      if (this.#given) this.#applyView(this.#given, this.#streamed);
    }
    if (changed.has('locale')) this.chosenLocale = undefined;
    const screen = this.#screen();
    for (const module of this.#modulesOf(screen)) module.load();
    if (screen.name === 'payment' || screen.name === 'underpaid') this.#fromExchange.load();
    if ((screen.name === 'payment' || screen.name === 'underpaid') && this.#discovery.wallets.length && namedAsset(screen.view, screen.payment).chain_id) this.#walletChunk.load();
    if (this.hasUpdated && (changed.has('paymentLinkRef') || changed.has('apiBase'))) {
      // Another link: nothing of the previous one may stay on screen or drive a redirect.
      this.view = undefined;
      this.payment = null;
      this.failure = undefined;
      this.actionError = undefined;
      this.#redirect.reset();
    }
  }

  #applyView(view: CheckoutView, askedAt: number): void {
    const first = this.view === undefined;
    this.view = view;
    this.failure = undefined;
    if (view.payment) this.#setPayment(view.payment, askedAt);
    const screen = this.#screen();
    // An expired link with nothing left to follow: back to the merchant's failure URL, as after a payment.
    if (screen.name === 'error' && isWebUrl(view.failure_redirect_url)) this.#redirect.schedule(this.#leave);
    if (!first) return;
    if (screen.name === 'error') this.#reportError(new CheckoutApiError(screen.failure.code, screen.failure.message));
    // What the customer typed for this link earlier in the session (a reload, a change of coin) comes back as typed,
    // in the form they typed it in (only the open form keeps what is typed).
    const kept = keptContact(this.#storage((storage) => storage.getItem(contactKey(view.payment_link_ref))));
    this.contact = kept ?? contactFromBilling(view);
    this.contactOpen = !!kept || contactFormOpen(view);
    this.compact = matchMedia(COMPACT_MEDIA).matches;
    const method = chooseMethod(view, this.pmtChannel, this.pmtMethod);
    this.methodKey = method ? methodKey(method) : '';
    this.assetKey = defaultAsset(method);
    this.dispatchEvent(new PayCheckoutReadyEvent({ view }));
  }

  #loadFailed(error: unknown): void {
    const failure = error instanceof CheckoutApiError ? error : new CheckoutApiError('network', String(error));
    // A failed re-sync keeps what is on screen: the stream and its polling keep trying.
    if (this.view && (failure.code === 'network' || failure.code === 'malformed')) return;
    this.failure = failure;
    this.#reportError(failure);
  }

  #chunkFailed(error: unknown): void {
    this.failure = new CheckoutApiError('network', `Part of the checkout could not be loaded (${String(error)}).`);
    this.#reportError(this.failure);
  }

  #reportError(error: CheckoutApiError): void {
    this.dispatchEvent(new PayCheckoutErrorEvent({ code: error.code, message: error.message }));
  }

  /** Takes a payment from any source (view, POST, GET, stream); `askedAt` is #streamed when it was asked for. */
  #setPayment(payment: Payment, askedAt: number): void {
    const current = this.payment;
    if (!supersedes(current, payment, askedAt < this.#streamed)) return;
    this.payment = payment;
    if (current?.payment_id !== payment.payment_id) {
      // Another payment (this tab's, or another's): whatever was under way for the last one is over.
      this.walletState = { step: 'idle' };
      this.changingCoin = false;
    }
    if (current?.payment_id === payment.payment_id && current.status === payment.status) {
      // Money seen without a change of status (a partial payment, unconfirmed): said at once, politely.
      if (current.received_crypto !== payment.received_crypto && hasReceived(payment)) {
        this.#announce(awaitsConfirmation(payment) ? 'receivedUnconfirmed' : 'received', { amount: formatCrypto(this.#locale, payment.received_crypto), asset: payment.asset });
      }
      return;
    }
    // Each status has its message, under the status's own name.
    this.#announce(payment.status);
    // The link's view says anew what changes with a payment's status: what closed quotes received, the receipt page.
    if (current) void this.#viewTask.run();
    this.dispatchEvent(new PayCheckoutStatusEvent({ payment }));
    if (payment.status === 'paid' && payment.success_redirect_url && isWebUrl(payment.success_redirect_url)) this.#redirect.schedule(this.#returnToMerchant);
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

  #announce(key: MessageKey, params?: Params): void {
    this.announcement = { key, params };
  }

  // ---- actions

  async #open(asset: Payment['asset'], network: Payment['network'], customer?: Partial<Contact>): Promise<void> {
    const urls = this.#urls;
    const method = findMethod(this.view, this.methodKey) ?? this.view?.methods[0];
    if (!urls || !method || this.busy) return;
    this.busy = true;
    this.actionError = undefined;
    this.#announce('opening');
    const askedAt = this.#streamed;
    try {
      this.#setPayment(await openPayment(urls, { pmt_channel: method.pmt_channel, pmt_method: method.pmt_method, asset, network, ...(customer && { customer }) }), askedAt);
      // The same coin again: the gateway answers with the payment still open, which takes the screen back.
      this.changingCoin = false;
    } catch (error) {
      const failure = error instanceof CheckoutApiError ? error : new CheckoutApiError('network', String(error));
      this.actionError = failure;
      this.#reportError(failure);
      // Paid or expired meanwhile (another tab, the chain), or the asset's network out of sight: show what the gateway says now.
      if (failure.code === 'conflict' || failure.code === 'link_expired' || failure.code === 'unavailable') void this.#viewTask.run();
    } finally {
      this.busy = false;
    }
  }

  #pay = (event: SubmitEvent): void => {
    event.preventDefault();
    const { asset, network } = parseAssetKey(this.assetKey);
    const { invalid, customer } = validateContact(this.contact, this.contactOpen, contactRequired(this.view!));
    this.invalid = invalid;
    const first = firstInvalid(invalid);
    if (first) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus());
    else void this.#open(asset, network, customer);
  };

  #newQuote = (): void => {
    if (this.payment) void this.#open(this.payment.asset, this.payment.network);
  };

  /** Back to the coins: picking one opens a payment in it (the gateway closes this one's quote). */
  #changeCoin = (): void => {
    const payment = this.payment;
    this.changingCoin = true;
    this.actionError = undefined;
    if (payment) this.assetKey = assetKey(payment);
  };

  #returnToMerchant = (): void => {
    const payment = this.payment;
    const url = payment?.success_redirect_url;
    this.#redirect.cancel();
    if (!payment || payment.status !== 'paid' || !url) return;
    this.#redirect.navigate(new PayCheckoutSuccessEvent({ payment, url }), url);
  };

  #leave = (): void => {
    const view = this.view;
    this.#redirect.cancel();
    if (!view) return;
    const reason = view.status === 'expired' ? 'link_expired' : view.status === 'cancelled' ? 'link_cancelled' : 'cancelled';
    this.#redirect.navigate(new PayCheckoutFailureEvent({ reason, url: view.failure_redirect_url }), view.failure_redirect_url);
  };

  #back = (): void => {
    const url = this.view?.merchant_details.back_url;
    if (url) this.#redirect.navigate(new PayCheckoutBackEvent({ url }), url);
  };

  #stay = (): void => this.#redirect.cancel();

  #switchLanguage = (locale: Locale): void => {
    this.chosenLocale = locale;
  };

  #retry = (): void => {
    this.failure = undefined;
    void this.#viewTask.run();
  };

  #onContactInput = (field: ContactField, value: string): void => {
    this.contact = { ...this.contact, [field]: value };
    const ref = this.view?.payment_link_ref;
    if (ref) this.#storage((storage) => storage.setItem(contactKey(ref), JSON.stringify(this.contact)));
    if (this.invalid[field]) this.invalid = { ...this.invalid, [field]: undefined };
  };

  /**
   * The session's storage, never the local one: a contact typed on a shared phone goes with the tab. Storage may be
   * refused (a sandboxed frame, a private mode, a full quota): the checkout then works without it.
   */
  #storage<T>(use: (storage: Storage) => T): T | undefined {
    try {
      return use(sessionStorage);
    } catch {
      return undefined;
    }
  }

  #onMethod = (key: string): void => {
    this.methodKey = key;
    this.assetKey = defaultAsset(findMethod(this.view, key));
  };

  // ---- rendering

  /** What a receipt's copy buttons need. */
  get #keep() {
    return { copied: this.#clipboard.copied, onCopy: (what: Copyable, text: string) => void this.#clipboard.copy(what, text) };
  }

  #hosted(): boolean {
    return this.embedded === false;
  }

  protected override render(): TemplateResult | typeof nothing {
    const screen = this.#screen();
    // Before the delay an embedded card is only its skeleton: the card's place on the shop's page, with no text to
    // lay out (each font a frame draws costs it), so a prompt answer's order is still the first content drawn.
    if (screen.name === 'loading' && !this.#loadingDelay.passed) return this.#hosted() ? nothing : html`<div class="card skeleton"></div>`;
    const locale = this.#locale;
    const ui: Ui = {
      locale,
      t: (key, params) => format(locale, key, params),
      vnd: (amount) => formatVnd(locale, amount),
      crypto: (amount) => formatCrypto(locale, amount),
      rate: (rate) => formatRate(locale, rate),
      time: (iso) => formatTime(locale, iso),
      region: (code) => formatRegion(locale, code),
    };
    const shown = this.#shown(screen);
    const card = html`
      <div part="card" class="card ${shown === 'loading' ? 'skeleton' : ''}" data-view=${shown} lang=${locale}>
        ${header(ui, this.view, this.#hosted(), this.#switchLanguage)} ${this.stream.lost ? offlineBanner(ui, () => this.stream.checkNow()) : nothing}
        ${shown === 'loading' ? loadingView(ui) : this.#body(ui, screen)}
        ${shown === 'loading' ? nothing : footer(ui, this.view)}
        <p part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement ? ui.t(this.announcement.key, this.announcement.params) : ''}</p>
      </div>
    `;
    return this.#hosted() ? html`<div class="page">${card}</div>` : card;
  }

  #body(ui: Ui, screen: Screen): TemplateResult {
    switch (screen.name) {
      case 'loading':
        return loadingView(ui);
      case 'error':
        return errorView(ui, screen, { seconds: this.#redirect.remaining, onRetry: this.#retry, onLeave: this.#leave });
      case 'order':
        return orderView(
          ui,
          screen.view,
          {
            contact: this.contact,
            contactOpen: this.contactOpen,
            invalid: this.invalid,
            methodKey: this.methodKey,
            assetKey: this.assetKey,
            busy: this.busy,
            actionError: this.actionError,
            compact: this.compact,
            credit: this.#later.module?.creditCard(ui, screen.view, false),
          },
          {
            onPay: this.#pay,
            onContactInput: this.#onContactInput,
            onEditContact: () => (this.contactOpen = true),
            onMethod: this.#onMethod,
            onAsset: (key) => (this.assetKey = key),
            onBack: this.#back,
          },
        );
    }
    if (screen.name === 'payment' || screen.name === 'underpaid') {
      const module = this.#afterOrder.module;
      return module
        ? module.paymentView(ui, screen.view, screen.payment, {
            wallets: this.#walletChunk.module?.walletPanel(ui, screen.view, screen.payment, this.#discovery.wallets, this.walletState, (state) => (this.walletState = state)),
            remainder: hasReceived(screen.payment) ? this.#later.module?.remainder(ui, screen.view, screen.payment) : undefined,
            credit: this.#later.module?.creditCard(ui, screen.view),
            exchange: this.#fromExchange.module?.exchangePanel(ui, screen.view, screen.payment, {
              copied: this.#clipboard.copied === 'typed',
              onCopy: (text) => void this.#clipboard.copy('typed', text),
            }),
            seconds: this.#quoteCountdown.remaining,
            copied: this.#clipboard.copied,
            onCopy: (what, text) => void this.#clipboard.copy(what, text),
            onChangeCoin: this.#changeCoin,
            onBack: this.#back,
          })
        : loadingView(ui);
    }
    const later = this.#later.module;
    if (!later) return loadingView(ui);
    switch (screen.name) {
      case 'confirming':
        return later.confirmingView(ui, screen.payment);
      case 'paid':
        return later.paidView(ui, screen.view, screen.payment, { seconds: this.#redirect.remaining, onReturn: this.#returnToMerchant, onStay: this.#stay, ...this.#keep });
      case 'expired':
        return later.expiredView(ui, screen.view, {
          busy: this.busy,
          actionError: this.actionError,
          onNewQuote: this.#newQuote,
          onChangeCoin: this.#changeCoin,
          onLeave: this.#leave,
        });
      case 'late':
        return later.lateView(ui, screen.view, screen.payment, this.#back, this.#keep);
      case 'paid_late':
        return later.paidLateView(ui, screen.view, screen.payment, this.#back, this.#keep);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
