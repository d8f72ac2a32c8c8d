// <pay-checkout>: the customer's checkout for one payment link (README, the element). Importing this module
// defines nothing; src/checkout/define.ts registers the tag. The class holds the properties, what the customer types
// and picks, the controllers of its views, and dispatches its events; checkout-session.ts loads the link and follows
// its payment, state.ts decides which screen shows, views/ draw them.
import { adoptStyles, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { CheckoutView } from '../../contract/checkout.js';
import { CheckoutApiError } from '../api.js';
import { ClipboardController } from '../controllers/clipboard.js';
import { DeferredModuleController } from '../controllers/deferred-module.js';
import { DelayController } from '../controllers/delay.js';
import { ViewFocusController } from '../controllers/view-focus.js';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.js';
import { PayCheckoutErrorEvent, PayCheckoutReadyEvent, PayCheckoutStatusEvent } from '../events.js';
import { format, formatCrypto, formatRate, formatRegion, formatTime, formatVnd, toLocale, type Locale } from '../i18n/index.js';
import { styles } from './pay-checkout.styles.js';
import {
  assetKey,
  chooseMethod,
  contactFormOpen,
  contactFromBilling,
  contactRequired,
  keptContact,
  creditOf,
  defaultAsset,
  findMethod,
  firstInvalid,
  hasReceived,
  methodKey,
  namedAsset,
  parseAssetKey,
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
// Last: the bundle then holds the session beside the element class, which shares much of its text.
import { CheckoutSession } from './checkout-session.js';

export type { CheckoutViewName } from './state.js';

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
  // The reactive properties as one declaration rather than decorators (STYLE.md's anchors use `@property`): the
  // decorators' code, Lit's and TypeScript's helper, cost the script about 420 bytes gzipped. The fields below carry
  // the JSDoc the manifest takes; `state: true` ones are internal.
  static override properties = {
    paymentLinkRef: { attribute: 'payment-link-ref' },
    apiBase: { attribute: 'api-base' },
    embedded: { converter: { fromAttribute: (value: string | null) => (value === null ? undefined : value !== 'false') } },
    locale: {},
    pmtChannel: { attribute: 'pmt-channel' },
    pmtMethod: { attribute: 'pmt-method' },
    theme: { reflect: true },
    contactOpen: { state: true, attribute: false },
    contact: { state: true, attribute: false },
    invalid: { state: true, attribute: false },
    methodKey: { state: true, attribute: false },
    assetKey: { state: true, attribute: false },
    compact: { state: true, attribute: false },
    chosenLocale: { state: true, attribute: false },
  };

  /** The payment link to show; without it, the `ref` query parameter of the page URL. */
  paymentLinkRef?: string;

  /** The gateway's origin; without it, the origin this script was loaded from. */
  apiBase?: string;

  /**
   * The layout. Absent or present, the inline card that fits its container (from 320 px), from the first frame;
   * `embedded="false"`, the full hosted page with the merchant as its h1 (the gateway's `/checkout` page sets it).
   * The link's `is_checkout_embed` tells the merchant's integration which to use; it never changes the layout
   * under the customer's eyes once the link has loaded.
   */
  embedded?: boolean;

  /**
   * `vi` or `en`; without it, the locale of the link's billing address, else the browser's language. The customer
   * can switch language in the card; setting this attribute again overrides their choice.
   */
  locale?: string;

  /** The payment channel picked first. */
  pmtChannel = 'PROVIDER';

  /** The payment method picked first. */
  pmtMethod = 'PROVIDER_CRYPTO';

  /**
   * Forces `light` or `dark`. Without it, an embedded card is light (it sits in the shop's page, whose theme the
   * system's setting does not tell), and the hosted page follows the system's `prefers-color-scheme`. Read by CSS only.
   */
  theme?: 'light' | 'dark';

  private contactOpen = false;
  private contact: Contact = { name: '', email: '', phone: '' };
  private invalid: ContactErrors = {};
  private methodKey = '';
  private assetKey = '';
  /** A phone-sized window when the link loaded: the order's lines start folded. */
  private compact = false;
  /** The language the customer picked in the card. */
  private chosenLocale?: Locale;

  // Controllers register themselves with the element: they open, follow and close with it. The session's come first;
  // it is private to TypeScript only, so that a test's time-out message can say which payment it held.
  private readonly session = new CheckoutSession(this, REDIRECT_SECONDS, {
    locale: () => this.#locale,
    onReady: (view) => this.#ready(view),
    onStatus: (payment) => this.dispatchEvent(new PayCheckoutStatusEvent({ payment })),
    onError: (error) => this.dispatchEvent(new PayCheckoutErrorEvent({ code: error.code, message: error.message })),
  });

  #clipboard = new ClipboardController<Copyable>(this, {
    // The amount to type at an exchange is an amount too.
    onCopied: (what) => this.session.announce(what === 'typed' ? 'amountCopied' : `${what}Copied`),
    onFailed: () => this.session.announce('copyFailed'),
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
    preload: () => this.session.payment !== null,
    // A help beside the QR, not a view: one that does not arrive (offline) leaves the payment view as it is, with the
    // QR; the next update asks again.
    onError: () => undefined,
  });

  /** Until it has passed, nothing is drawn while the first view loads (LOADING_DELAY_MS). */
  #loadingDelay = new DelayController(this, LOADING_DELAY_MS);

  /** The payment view and the QR encoder: loaded in idle time once the link is shown, or when needed. */
  #afterOrder = new DeferredModuleController(this, {
    load: () => import('./views/after-order.js'),
    preload: () => this.session.view !== undefined,
    warm: (module) => module.warmUp(),
    onError: (error) => this.#chunkFailed(error),
  });

  /** The views once money moved or the quote ran out (a chunk beside the script): in idle time once a payment is open. */
  #later = new DeferredModuleController(this, {
    // Its views' styles come with it: adopted beside the element's own as soon as it is here.
    load: () => import('./views/later.js').then((module) => (adoptStyles(this.renderRoot as ShadowRoot, [...PayCheckout.elementStyles, module.laterStyles]), module)),
    preload: () => this.session.payment !== null,
    onError: (error) => this.#chunkFailed(error),
  });

  get #locale(): Locale {
    return this.chosenLocale ?? toLocale(this.locale) ?? toLocale(this.session.view?.billing_details?.billing_address?.locale) ?? toLocale(navigator.language) ?? 'en';
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
  #shown(screen = this.session.screen()): Screen['name'] {
    return this.#modulesOf(screen).some((m) => !m.module) ? 'loading' : screen.name;
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
    if (!this.hasUpdated) this.session.takePageView();
    if (changed.has('locale')) this.chosenLocale = undefined;
    const screen = this.session.screen();
    for (const module of this.#modulesOf(screen)) module.load();
    if (screen.name === 'payment' || screen.name === 'underpaid') {
      this.#fromExchange.load();
      if (this.#discovery.wallets.length && namedAsset(screen.view, screen.payment).chain_id) this.#walletChunk.load();
    }
    if (this.hasUpdated && (changed.has('paymentLinkRef') || changed.has('apiBase'))) this.session.reset();
  }

  /** The link's view arrived for the first time: the form as the customer left it, or as the link fills it. */
  #ready(view: CheckoutView): void {
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

  #chunkFailed(error: unknown): void {
    this.session.fail(new CheckoutApiError('network', `Part of the checkout could not be loaded (${String(error)}).`));
  }

  // ---- actions

  #pay = (event: SubmitEvent): void => {
    event.preventDefault();
    const { asset, network } = parseAssetKey(this.assetKey);
    const { invalid, customer } = validateContact(this.contact, this.contactOpen, contactRequired(this.session.view!));
    this.invalid = invalid;
    const first = firstInvalid(invalid);
    if (first) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus());
    else void this.session.open(this.methodKey, asset, network, customer);
  };

  #newQuote = (): void => {
    const payment = this.session.payment;
    if (payment) void this.session.open(this.methodKey, payment.asset, payment.network);
  };

  /** The coins again, the payment's own picked. */
  #changeCoin = (): void => {
    const payment = this.session.payment;
    this.session.changeCoin();
    if (payment) this.assetKey = assetKey(payment);
  };

  #switchLanguage = (locale: Locale): void => {
    this.chosenLocale = locale;
  };

  #onContactInput = (field: ContactField, value: string): void => {
    this.contact = { ...this.contact, [field]: value };
    const ref = this.session.view?.payment_link_ref;
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
    this.assetKey = defaultAsset(findMethod(this.session.view, key));
  };

  // ---- rendering

  /** What the copy buttons of the payment and the receipts need. */
  get #keep() {
    return { copied: this.#clipboard.copied, onCopy: (what: Copyable, text: string) => void this.#clipboard.copy(what, text) };
  }

  #hosted(): boolean {
    return this.embedded === false;
  }

  protected override render(): TemplateResult | typeof nothing {
    const session = this.session;
    const screen = session.screen();
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
        ${header(ui, session.view, this.#hosted(), this.#switchLanguage)} ${session.stream.lost ? offlineBanner(ui, () => session.stream.checkNow()) : nothing}
        ${shown === 'loading' ? loadingView(ui) : this.#body(ui, screen)}
        ${shown === 'loading' ? nothing : footer(ui, session.view)}
        <p part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${session.announcement ? ui.t(session.announcement.key, session.announcement.params) : ''}</p>
      </div>
    `;
    return this.#hosted() ? html`<div class="page">${card}</div>` : card;
  }

  #body(ui: Ui, screen: Screen): TemplateResult {
    const session = this.session;
    switch (screen.name) {
      case 'loading':
        return loadingView(ui);
      case 'error':
        return errorView(ui, screen, { seconds: session.redirect.remaining, onRetry: session.retry, onLeave: session.leave });
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
            busy: session.busy,
            actionError: session.actionError,
            compact: this.compact,
            credit: this.#later.module?.creditCard(ui, screen.view, false),
          },
          {
            onPay: this.#pay,
            onContactInput: this.#onContactInput,
            onEditContact: () => (this.contactOpen = true),
            onMethod: this.#onMethod,
            onAsset: (key) => (this.assetKey = key),
            onBack: session.back,
          },
        );
    }
    if (screen.name === 'payment' || screen.name === 'underpaid') {
      const module = this.#afterOrder.module;
      return module
        ? module.paymentView(ui, screen.view, screen.payment, {
            wallets: this.#walletChunk.module?.walletPanel(ui, screen.view, screen.payment, this.#discovery.wallets, session.walletState, (state) => {
              session.walletState = state;
              this.requestUpdate();
            }),
            remainder: hasReceived(screen.payment) ? this.#later.module?.remainder(ui, screen.view, screen.payment) : undefined,
            credit: this.#later.module?.creditCard(ui, screen.view),
            exchange: this.#fromExchange.module?.exchangePanel(ui, screen.view, screen.payment, {
              copied: this.#clipboard.copied === 'typed',
              onCopy: (text) => void this.#clipboard.copy('typed', text),
            }),
            seconds: session.quoteCountdown.remaining,
            ...this.#keep,
            onChangeCoin: this.#changeCoin,
            onBack: session.back,
          })
        : loadingView(ui);
    }
    const later = this.#later.module;
    if (!later) return loadingView(ui);
    switch (screen.name) {
      case 'confirming':
        return later.confirmingView(ui, screen.payment);
      case 'paid':
        return later.paidView(ui, screen.view, screen.payment, { seconds: session.redirect.remaining, onReturn: session.returnToMerchant, onStay: session.stay, ...this.#keep });
      case 'expired':
        return later.expiredView(ui, screen.view, {
          busy: session.busy,
          actionError: session.actionError,
          onNewQuote: this.#newQuote,
          onChangeCoin: this.#changeCoin,
          onLeave: session.leave,
        });
      case 'late':
        return later.lateView(ui, screen.view, screen.payment, session.back, this.#keep);
      case 'paid_late':
        return later.paidLateView(ui, screen.view, screen.payment, session.back, this.#keep);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
