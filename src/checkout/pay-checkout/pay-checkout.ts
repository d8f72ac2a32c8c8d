// <pay-checkout>: the customer's checkout for one payment link (DESIGN.md section 5). Importing this module
// defines nothing; src/checkout/define.ts registers the tag.
import { Task } from '@lit/task';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { CheckoutMethod, CheckoutView, Payment } from '../../contract/checkout.js';
import { email as emailRule, isWebUrl, phone as phoneRule } from '../../contract/fields.js';
import { CheckoutApiError, checkoutUrls, fetchPayment, fetchView, openPayment, type CheckoutUrls } from '../api.js';
import { CountdownController } from '../controllers/countdown.js';
import { PaymentStreamController } from '../controllers/payment-stream.js';
import {
  PayCheckoutBackEvent,
  PayCheckoutErrorEvent,
  PayCheckoutFailureEvent,
  PayCheckoutReadyEvent,
  PayCheckoutStatusEvent,
  PayCheckoutSuccessEvent,
} from '../events.js';
import { format, formatVnd, toLocale, type Locale, type MessageKey, type Params } from '../i18n/index.js';
import { drawQr } from '../qr.js';
import { styles } from './pay-checkout.styles.js';

/** The names of the views, as the card's `data-view` attribute shows them. */
export type CheckoutViewName = 'loading' | 'error' | 'order' | 'payment' | 'confirming' | 'underpaid' | 'paid' | 'expired' | 'paid_late';

type ContactField = 'name' | 'email' | 'phone';
type Contact = Record<ContactField, string>;

/** Where the script came from: the default gateway (the script-tag file is served by the gateway itself). */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin;
/** Seconds between "paid" and the automatic return to the merchant. */
export const REDIRECT_SECONDS = 5;
/** The rate-lock countdown is announced at these seconds left only. */
const ANNOUNCE_AT = [300, 60] as const;
/** Payment URIs a wallet opens; the bare TRON address has no scheme and gets no link. */
const WALLET_URI = /^(bitcoin|ethereum):/i;

const OPEN_STATUSES: readonly Payment['status'][] = ['awaiting_payment', 'confirming', 'underpaid'];

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
 * @csspart header - Merchant name, logo and the sandbox badge.
 * @csspart badge - The "Sandbox" badge.
 * @csspart summary - The order summary.
 * @csspart line - One order line.
 * @csspart total - The total row.
 * @csspart shipping - The shipping details.
 * @csspart back-button - Back to the merchant.
 * @csspart contact - The contact step.
 * @csspart methods - The payment method and asset step.
 * @csspart pay-button - The Pay button.
 * @csspart qr - The QR code canvas.
 * @csspart amount-crypto - The crypto amount and asset code.
 * @csspart amount-remaining - The amount still missing (underpaid).
 * @csspart amount-vnd - The amount in VND.
 * @csspart address - The one-time address.
 * @csspart copy-address - Copies the address.
 * @csspart copy-amount - Copies the amount.
 * @csspart wallet-link - Opens the payment URI in a wallet app.
 * @csspart network-warning - The only network to use.
 * @csspart countdown - The rate-lock or redirect countdown.
 * @csspart status - The polite live region.
 * @csspart confirmations - Confirmations seen of required.
 * @csspart new-quote-button - Asks for a new quote after the old one expired.
 * @csspart leave-button - Gives up: back to the merchant's failure URL.
 * @csspart return-button - Paid: back to the merchant's success URL.
 * @csspart retry-button - Loads again after an error.
 * @csspart error - An error message.
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
 */
export class PayCheckout extends LitElement {
  static override styles = styles;

  /** The payment link to show; without it, the `ref` query parameter of the page URL. */
  @property({ attribute: 'payment-link-ref' }) paymentLinkRef?: string;

  /** The gateway's origin; without it, the origin this script was loaded from. */
  @property({ attribute: 'api-base' }) apiBase?: string;

  /**
   * Overrides the link's `is_checkout_embed`: present (or any value but `false`), the inline card that fits its
   * container; `embedded="false"`, the full hosted layout (the hosted page sets it). Absent, the link decides.
   */
  @property({ converter: { fromAttribute: (value: string | null) => (value === null ? undefined : value !== 'false') } })
  embedded?: boolean;

  /** `vi` or `en`; without it, the locale of the link's billing address, else the browser's language. */
  @property() locale?: string;

  /** The payment channel picked first. */
  @property({ attribute: 'pmt-channel' }) pmtChannel = 'PROVIDER';

  /** The payment method picked first. */
  @property({ attribute: 'pmt-method' }) pmtMethod = 'PROVIDER_CRYPTO';

  /** Forces `light` or `dark`; without it, the system's `prefers-color-scheme`. Read by CSS only. */
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
  @state() private invalid: Partial<Record<ContactField, MessageKey>> = {};
  @state() private methodKey = '';
  @state() private assetKey = '';
  @state() private announcement = '';
  @state() private copied?: 'address' | 'amount';

  /** The automatic return to the merchant (after payment, or once the link has expired): when, and which way. */
  #redirect: { at: number; go: () => void } | null = null;
  #navigated = false;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #drawn = new WeakMap<HTMLCanvasElement, string>();
  #shownView: CheckoutViewName = 'loading';
  #hadFocus = false;

  #viewTask = new Task(this, {
    task: async ([urls], { signal }) => {
      if (!urls) throw new CheckoutApiError('missing_ref', 'No payment-link-ref attribute and no ?ref= in the page URL.');
      return fetchView(urls, signal);
    },
    args: () => [this.#urls] as const,
    argsEqual: ([a], [b]) => a?.view === b?.view,
    onComplete: (view) => this.#applyView(view),
    onError: (error) => this.#loadFailed(error),
  });

  // Registers itself with the element: opens, follows and closes the stream with it.
  private readonly stream = new PaymentStreamController(this, {
    url: () => (this.#follows() ? (this.#urls?.events ?? null) : null),
    onPayment: (payment) => this.#setPayment(payment),
    poll: () => this.#poll(),
    resync: () => void this.#viewTask.run(),
  });

  #quoteCountdown = new CountdownController(this, {
    target: () => (this.payment && ['awaiting_payment', 'underpaid'].includes(this.payment.status) ? Date.parse(this.payment.quote_expires_at) : null),
    thresholds: ANNOUNCE_AT,
    onThreshold: (seconds) => this.#announce(seconds === 60 ? 'oneMinuteLeft' : 'minutesLeft', { minutes: Math.round(seconds / 60) }),
    onEnd: () => void this.#poll(),
  });

  #redirectCountdown = new CountdownController(this, {
    target: () => this.#redirect?.at ?? null,
    onEnd: () => this.#redirect?.go(),
  });

  get #ref(): string | undefined {
    return this.paymentLinkRef || new URLSearchParams(location.search).get('ref') || undefined;
  }

  get #urls(): CheckoutUrls | undefined {
    const ref = this.#ref;
    return ref ? checkoutUrls(this.apiBase || SCRIPT_ORIGIN, ref) : undefined;
  }

  get #locale(): Locale {
    return toLocale(this.locale) ?? toLocale(this.view?.billing_details?.billing_address?.locale) ?? toLocale(navigator.language) ?? 'en';
  }

  #t(key: MessageKey, params?: Params): string {
    return format(this.#locale, key, params);
  }

  #vnd(amount: number | `${number}`): string {
    return formatVnd(this.#locale, amount);
  }

  /** The stream is open while something can still change: an active link, or a payment not yet final. */
  #follows(): boolean {
    if (!this.view || this.failure) return false;
    return this.view.status === 'active' || (this.payment !== null && OPEN_STATUSES.includes(this.payment.status));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#copiedTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.hasUpdated && (changed.has('paymentLinkRef') || changed.has('apiBase'))) {
      // Another link: nothing of the previous one may stay on screen or drive a redirect.
      this.view = undefined;
      this.payment = null;
      this.failure = undefined;
      this.actionError = undefined;
      this.#redirect = null;
      this.#navigated = false;
    }
    this.#hadFocus = this.shadowRoot?.activeElement != null;
  }

  protected override updated(): void {
    const canvas = this.renderRoot.querySelector<HTMLCanvasElement>('canvas[part="qr"]');
    const uri = this.payment?.payment_uri;
    if (canvas && uri && this.#drawn.get(canvas) !== uri) {
      drawQr(canvas, uri);
      this.#drawn.set(canvas, uri);
    }
    const shown = this.#viewName();
    if (shown !== this.#shownView) {
      // A view that replaces the one holding focus takes it, so keyboard and screen reader users stay in place.
      if (this.#hadFocus) this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
      this.#shownView = shown;
    }
  }

  #applyView(view: CheckoutView): void {
    const first = this.view === undefined;
    this.view = view;
    this.failure = undefined;
    if (view.payment) this.#setPayment(view.payment);
    // An expired link with nothing left to follow: back to the merchant's failure URL, as after a payment.
    if (this.#viewName() === 'error' && isWebUrl(view.failure_redirect_url)) this.#redirectSoon(this.#leave);
    if (!first) return;
    if (this.#viewName() === 'error') this.#reportError(new CheckoutApiError('link_expired', 'This payment link has expired.'));
    const billing = view.billing_details;
    this.contact = { name: billing?.billing_name ?? '', email: billing?.billing_email ?? '', phone: billing?.billing_phone ?? '' };
    this.contactOpen = view.default_guest_checkout || !(billing?.billing_name || billing?.billing_email);
    const method = view.methods.find((m) => m.pmt_channel === this.pmtChannel && m.pmt_method === this.pmtMethod) ?? view.methods[0];
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

  #reportError(error: CheckoutApiError): void {
    this.dispatchEvent(new PayCheckoutErrorEvent({ code: error.code, message: error.message }));
  }

  /** Takes a payment from any source (view, POST, GET, stream); events of an older payment of the link are ignored. */
  #setPayment(payment: Payment): void {
    const current = this.payment;
    if (current && current.payment_id !== payment.payment_id && Date.parse(payment.created_at) < Date.parse(current.created_at)) return;
    this.payment = payment;
    if (current?.payment_id === payment.payment_id && current.status === payment.status) return;
    this.#announce(STATUS_MESSAGES[payment.status]);
    this.dispatchEvent(new PayCheckoutStatusEvent({ payment }));
    if (payment.status === 'paid' && payment.success_redirect_url && isWebUrl(payment.success_redirect_url)) this.#redirectSoon(this.#returnToMerchant);
  }

  /** Schedules the automatic return (once: a redirect already due or done stands). */
  #redirectSoon(go: () => void): void {
    if (this.#redirect || this.#navigated) return;
    this.#redirect = { at: Date.now() + REDIRECT_SECONDS * 1000, go };
  }

  async #poll(): Promise<void> {
    const urls = this.#urls;
    if (!urls) return;
    if (!this.payment) return this.#viewTask.run();
    try {
      this.#setPayment(await fetchPayment(urls, this.payment.payment_id));
    } catch {
      // The stream's backoff tries again.
    }
  }

  #announce(key: MessageKey, params?: Params): void {
    this.announcement = this.#t(key, params);
  }

  // ---- actions

  async #open(asset: Payment['asset'], network: Payment['network'], customer?: Partial<Contact>): Promise<void> {
    const urls = this.#urls;
    const method = this.view?.methods.find((m) => methodKey(m) === this.methodKey) ?? this.view?.methods[0];
    if (!urls || !method || this.busy) return;
    this.busy = true;
    this.actionError = undefined;
    this.#announce('opening');
    try {
      this.#setPayment(await openPayment(urls, { pmt_channel: method.pmt_channel, pmt_method: method.pmt_method, asset, network, ...(customer && { customer }) }));
    } catch (error) {
      const failure = error instanceof CheckoutApiError ? error : new CheckoutApiError('network', String(error));
      this.actionError = failure;
      this.#reportError(failure);
      // Paid or expired meanwhile (another tab, the chain): show what the gateway says now.
      if (failure.code === 'conflict' || failure.code === 'link_expired') void this.#viewTask.run();
    } finally {
      this.busy = false;
    }
  }

  #pay = (event: SubmitEvent): void => {
    event.preventDefault();
    const [asset, network] = this.assetKey.split(':') as [Payment['asset'], Payment['network']];
    const customer = this.#validContact();
    if (customer) void this.#open(asset, network, customer);
  };

  /** The contact to send, or undefined (with the fields marked) when the open form is not valid. */
  #validContact(): Partial<Contact> | undefined {
    const { name, email, phone } = trimmed(this.contact);
    const invalid: Partial<Record<ContactField, MessageKey>> = {};
    if (this.contactOpen) {
      if (!name || name.length > 200) invalid.name = 'nameRequired';
      if (!emailRule.safeParse(email).success) invalid.email = 'emailInvalid';
      if (phone && !phoneRule.safeParse(phone).success) invalid.phone = 'phoneInvalid';
    }
    this.invalid = invalid;
    const first = (['name', 'email', 'phone'] as const).find((field) => invalid[field]);
    if (first) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus());
      return undefined;
    }
    return Object.fromEntries(Object.entries({ name, email, phone }).filter(([, value]) => value)) as Partial<Contact>;
  }

  #newQuote = (): void => {
    if (this.payment) void this.#open(this.payment.asset, this.payment.network);
  };

  #returnToMerchant = (): void => {
    const payment = this.payment;
    const url = payment?.success_redirect_url;
    this.#redirect = null;
    this.requestUpdate();
    if (!payment || payment.status !== 'paid' || !url) return;
    this.#navigate(new PayCheckoutSuccessEvent({ payment, url }), url);
  };

  #leave = (): void => {
    const view = this.view;
    this.#redirect = null;
    if (!view) return;
    const reason = view.status === 'expired' ? 'link_expired' : 'cancelled';
    this.#navigate(new PayCheckoutFailureEvent({ reason, url: view.failure_redirect_url }), view.failure_redirect_url);
  };

  #back = (): void => {
    const url = this.view?.merchant_details.back_url;
    if (url) this.#navigate(new PayCheckoutBackEvent({ url }), url);
  };

  /** The one way out of the page: the event first (cancelable), then exactly the gateway's URL, if it is http(s). */
  #navigate(event: Event, url: string): void {
    if (!this.dispatchEvent(event) || !isWebUrl(url) || this.#navigated) return;
    this.#navigated = true;
    location.assign(url);
  }

  async #copy(what: 'address' | 'amount', text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      this.#announce('copyFailed');
      return;
    }
    this.copied = what;
    this.#announce(what === 'address' ? 'addressCopied' : 'amountCopied');
    clearTimeout(this.#copiedTimer);
    this.#copiedTimer = setTimeout(() => (this.copied = undefined), 2000);
  }

  #retry = (): void => {
    this.failure = undefined;
    void this.#viewTask.run();
  };

  #onContactInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as ContactField;
    this.contact = { ...this.contact, [field]: input.value };
    if (this.invalid[field]) this.invalid = { ...this.invalid, [field]: undefined };
  };

  #onMethodChange = (event: Event): void => {
    this.methodKey = (event.target as HTMLInputElement).value;
    this.assetKey = defaultAsset(this.view?.methods.find((m) => methodKey(m) === this.methodKey));
  };

  // ---- rendering

  #viewName(): CheckoutViewName {
    if (this.failure) return 'error';
    const view = this.view;
    if (!view) return 'loading';
    const payment = this.payment;
    if (payment && payment.status !== 'awaiting_payment') return payment.status;
    if (view.status === 'expired') return 'error';
    if (payment) return 'payment';
    return view.status === 'paid' ? 'paid' : 'order';
  }

  #hosted(): boolean {
    return !(this.embedded ?? this.view?.is_checkout_embed ?? false);
  }

  protected override render(): TemplateResult {
    const name = this.#viewName();
    const card = html`
      <div part="card" class="card" data-view=${name} lang=${this.#locale}>
        ${this.#header()} ${this.#body(name)}
        <p part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</p>
      </div>
    `;
    return this.#hosted() ? html`<div class="page">${card}</div>` : card;
  }

  #body(name: CheckoutViewName): TemplateResult {
    const view = this.view;
    const payment = this.payment;
    if (name === 'loading') return this.#loading();
    if (name === 'error' || !view) return this.#error();
    if (name === 'order' || !payment) return this.#order(view);
    switch (name) {
      case 'payment':
      case 'underpaid':
        return this.#paymentPanel(view, payment);
      case 'confirming':
        return this.#confirming(payment);
      case 'paid':
        return this.#paid(payment);
      case 'expired':
        return this.#expired(view);
      default:
        return this.#paidLate(view);
    }
  }

  #loading(): TemplateResult {
    return html`<div class="spinner" aria-hidden="true"></div>
      <p class="muted">${this.#t('loading')}</p>`;
  }

  /** The merchant, the order and the sandbox badge; on the hosted page it is the page's h1, even before the link loads. */
  #header(): TemplateResult | typeof nothing {
    const view = this.view;
    if (!view && !this.#hosted()) return nothing;
    const merchant = view?.merchant_details;
    const logo = merchant?.logo && isWebUrl(merchant.logo) ? merchant.logo : undefined;
    const title = html`${merchant?.name || this.#t('checkout')}${view
      ? html`<span class="order-id">${this.#t('order', { order: view.merchant_order_id })}</span>`
      : nothing}`;
    // A div, not <header>: outside <main> a header is a banner landmark, and a page has one of those at most.
    return html`<div part="header">
      ${logo ? html`<img src=${logo} alt="" width="40" height="40" referrerpolicy="no-referrer" />` : nothing}
      ${this.#hosted() ? html`<h1 class="merchant">${title}</h1>` : html`<p class="merchant">${title}</p>`}
      ${view?.sandbox ? html`<span part="badge">${this.#t('sandbox')}</span>` : nothing}
    </div>`;
  }

  #error(): TemplateResult {
    const view = this.view;
    const failure = this.failure ?? new CheckoutApiError('link_expired', 'This payment link has expired.');
    const retryable = !['missing_ref', 'not_found', 'link_expired'].includes(failure.code);
    const canLeave = failure.code === 'link_expired' && view && isWebUrl(view.failure_redirect_url);
    const seconds = canLeave ? this.#redirectCountdown.remaining : null;
    return html`<h2 tabindex="-1">${this.#t('errorTitle')}</h2>
      <p part="error" role="alert">${this.#t(`error_${failure.code}`, { detail: failure.message })}</p>
      ${seconds !== null ? html`<p part="countdown" role="timer" aria-live="off">${this.#t('redirectIn', { seconds })}</p>` : nothing}
      <div class="actions">
        ${retryable ? html`<button part="retry-button" class="primary" type="button" @click=${this.#retry}>${this.#t('retry')}</button>` : nothing}
        ${canLeave ? html`<button part="leave-button" type="button" @click=${this.#leave}>${this.#t('returnToMerchant')}</button>` : nothing}
      </div>`;
  }

  #order(view: CheckoutView): TemplateResult {
    const merchant = view.merchant_details;
    const subtotal = view.order_details.reduce((sum, line) => sum + line.price * line.quantity, 0);
    const method = view.methods.find((m) => methodKey(m) === this.methodKey);
    return html`<h2 tabindex="-1">${this.#t('orderSummary')}</h2>
      <div part="summary">
        <p class="muted">${view.description}</p>
        <ul class="lines">
          ${view.order_details.map(
            (line) => html`<li part="line">
              ${line.image && isWebUrl(line.image) ? html`<img src=${line.image} alt="" width="48" height="48" loading="lazy" referrerpolicy="no-referrer" />` : nothing}
              <span class="line-text"
                ><span class="line-name">${line.name}</span>
                <span class="muted">${this.#t('lineQuantity', { quantity: line.quantity, price: this.#vnd(line.price) })}</span></span
              >
              <span class="amount">${this.#vnd(line.price * line.quantity)}</span>
            </li>`,
          )}
        </ul>
        <dl class="totals">
          <div><dt>${this.#t('subtotal')}</dt><dd>${this.#vnd(subtotal)}</dd></div>
          ${merchant.promo_discount
            ? html`<div>
                <dt>${merchant.promo_code ? this.#t('promo', { code: merchant.promo_code }) : this.#t('discount')}</dt>
                <dd>−${this.#vnd(merchant.promo_discount)}</dd>
              </div>`
            : nothing}
          ${merchant.shipping_charges ? html`<div><dt>${this.#t('shipping')}</dt><dd>${this.#vnd(merchant.shipping_charges)}</dd></div>` : nothing}
          <div part="total"><dt>${this.#t('total')}</dt><dd>${this.#vnd(view.amount)}</dd></div>
        </dl>
      </div>
      ${view.show_shipping_details && view.shipping_details ? this.#shipping(view.shipping_details) : nothing}
      <form novalidate @submit=${this.#pay}>
        ${this.#contact(view)} ${this.#methods(view, method)}
        ${this.actionError
          ? html`<p part="error" role="alert">${this.#t(`error_${this.actionError.code}`, { detail: this.actionError.message })}</p>`
          : nothing}
        <button part="pay-button" class="primary" type="submit" ?disabled=${this.busy || !this.assetKey} aria-busy=${this.busy ? 'true' : 'false'}>
          ${this.#t('pay', { amount: this.#vnd(view.amount) })}
        </button>
      </form>
      ${this.#backButton(view)}`;
  }

  #backButton(view: CheckoutView): TemplateResult | typeof nothing {
    const url = view.merchant_details.back_url;
    if (!view.show_back_button || !url || !isWebUrl(url)) return nothing;
    return html`<div class="actions">
      <button part="back-button" class="link-button" type="button" @click=${this.#back}>${this.#t('back')}</button>
    </div>`;
  }

  #shipping(shipping: NonNullable<CheckoutView['shipping_details']>): TemplateResult {
    const address = shipping.shipping_address;
    const lines = [
      shipping.shipping_name,
      address?.line_1,
      address?.line_2,
      [address?.city, address?.state, address?.postal_code].filter(Boolean).join(', '),
      address?.country_code,
      shipping.shipping_phone,
      shipping.shipping_email,
    ].filter((line): line is string => Boolean(line));
    return html`<section part="shipping" aria-labelledby="shipping-title">
      <h3 id="shipping-title">${this.#t('shippingTo')}</h3>
      <address>${lines.map((line) => html`<div>${line}</div>`)}</address>
    </section>`;
  }

  #contact(view: CheckoutView): TemplateResult {
    if (!this.contactOpen) {
      const billing = view.billing_details;
      return html`<fieldset part="contact">
        <legend>${this.#t('contact')}</legend>
        <div class="contact-card">
          <address>
            ${[billing?.billing_name, billing?.billing_email, billing?.billing_phone].filter(Boolean).map((line) => html`<div>${line}</div>`)}
          </address>
          <button type="button" class="link-button" @click=${() => (this.contactOpen = true)} aria-label=${`${this.#t('edit')}: ${this.#t('contact')}`}>
            ${this.#t('edit')}
          </button>
        </div>
      </fieldset>`;
    }
    const field = (name: ContactField, type: 'text' | 'email' | 'tel', autocomplete: 'name' | 'email' | 'tel', required: boolean) => {
      const error = this.invalid[name];
      return html`<div class="field">
        <label for="contact-${name}">${this.#t(name)}</label>
        <input
          id="contact-${name}"
          name=${name}
          type=${type}
          autocomplete=${autocomplete}
          ?required=${required}
          maxlength=${name === 'email' ? 254 : name === 'phone' ? 32 : 200}
          .value=${this.contact[name]}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${error ? `contact-${name}-error` : nothing}
          @input=${this.#onContactInput}
        />
        ${error ? html`<p id="contact-${name}-error" class="field-error">${this.#t(error)}</p>` : nothing}
      </div>`;
    };
    return html`<fieldset part="contact">
      <legend>${this.#t('contact')}</legend>
      ${field('name', 'text', 'name', true)} ${field('email', 'email', 'email', true)} ${field('phone', 'tel', 'tel', false)}
    </fieldset>`;
  }

  #methods(view: CheckoutView, method: CheckoutMethod | undefined): TemplateResult {
    return html`<fieldset part="methods">
      <legend>${this.#t('method')}</legend>
      ${view.methods.map(
        (m) => html`<label class="choice">
          <input type="radio" name="method" .value=${methodKey(m)} .checked=${methodKey(m) === this.methodKey} @change=${this.#onMethodChange} />
          ${this.#t('methodCrypto')}
        </label>`,
      )}
      ${method
        ? html`<fieldset>
            <legend>${this.#t('asset')}</legend>
            ${sortedAssets(method).map(
              (a) => html`<label class="choice">
                <input
                  type="radio"
                  name="asset"
                  .value=${`${a.asset}:${a.network}`}
                  .checked=${`${a.asset}:${a.network}` === this.assetKey}
                  @change=${(event: Event) => (this.assetKey = (event.target as HTMLInputElement).value)}
                />
                ${a.label}
              </label>`,
            )}
          </fieldset>`
        : nothing}
    </fieldset>`;
  }

  #assetLabel(payment: Payment): string {
    const asset = this.view?.methods.flatMap((m) => m.assets).find((a) => a.asset === payment.asset && a.network === payment.network);
    return asset?.label ?? `${payment.asset} (${payment.network})`;
  }

  #amountCrypto(payment: Payment): TemplateResult {
    return html`<span part="amount-crypto"><span data-amount-crypto=${payment.amount_crypto}>${payment.amount_crypto}</span> ${payment.asset}</span>`;
  }

  #paymentPanel(view: CheckoutView, payment: Payment): TemplateResult {
    const underpaid = payment.status === 'underpaid';
    const toSend = underpaid ? payment.remaining_crypto : payment.amount_crypto;
    const walletUri = WALLET_URI.test(payment.payment_uri) ? payment.payment_uri : undefined;
    const seconds = this.#quoteCountdown.remaining;
    return html`<div class="pay">
      <h2 tabindex="-1">${underpaid ? this.#t('underpaid') : this.#t('scanToPay')}</h2>
      ${underpaid
        ? html`<p>${this.#t('underpaidBody', { received: payment.received_crypto, remaining: payment.remaining_crypto, asset: payment.asset })}</p>`
        : nothing}
      <canvas part="qr" role="img" aria-label=${this.#t('qrLabel', { amount: toSend, asset: payment.asset, address: payment.address })}></canvas>
      ${underpaid
        ? html`<p class="muted">${this.#t('sendRemaining')}</p>
            <p part="amount-remaining"><span data-remaining-crypto=${payment.remaining_crypto}>${payment.remaining_crypto}</span> ${payment.asset}</p>
            <p class="muted">${this.#t('amountDue')} ${this.#amountCrypto(payment)}</p>`
        : html`<p class="muted">${this.#t('sendExactly')}</p>
            <p class="amount-big">${this.#amountCrypto(payment)}</p>`}
      <p part="amount-vnd">${this.#vnd(payment.amount_vnd)}</p>
      ${seconds !== null
        ? html`<p part="countdown" role="timer" aria-live="off">${this.#t('rateLocked', { time: clock(seconds) })}</p>`
        : nothing}
      <p class="muted">${this.#t('address')}</p>
      <code part="address" data-address=${payment.address}>${payment.address}</code>
      <div class="actions">
        <button part="copy-address" type="button" @click=${() => void this.#copy('address', payment.address)}>
          ${this.copied === 'address' ? this.#t('copied') : this.#t('copyAddress')}
        </button>
        <button part="copy-amount" type="button" @click=${() => void this.#copy('amount', toSend)}>
          ${this.copied === 'amount' ? this.#t('copied') : this.#t('copyAmount')}
        </button>
        ${walletUri ? html`<a part="wallet-link" class="button primary" href=${walletUri}>${this.#t('openWallet')}</a>` : nothing}
      </div>
      <p part="network-warning" role="note">${this.#t('networkWarning', { label: this.#assetLabel(payment) })}</p>
      <p class="muted">${this.#t('awaitingPayment')}</p>
      <p class="muted">${this.#t('rate', { asset: payment.asset, rate: this.#vnd(payment.rate as `${number}`) })}</p>
      ${this.#backButton(view)}
    </div>`;
  }

  #confirming(payment: Payment): TemplateResult {
    const seen = payment.transactions.length ? Math.min(...payment.transactions.map((t) => t.confirmations)) : 0;
    const required = payment.confirmations_required;
    return html`<div class="pay">
      <h2 tabindex="-1">${this.#t('confirming')}</h2>
      <p class="amount-big">${this.#amountCrypto(payment)}</p>
      <p part="amount-vnd">${this.#vnd(payment.amount_vnd)}</p>
      <p part="confirmations" data-seen=${seen} data-required=${required}>${this.#t('confirmations', { seen, required })}</p>
      <progress max=${required} .value=${Math.min(seen, required)} aria-label=${this.#t('confirmations', { seen, required })}></progress>
    </div>`;
  }

  #paid(payment: Payment): TemplateResult {
    const seconds = this.#redirectCountdown.remaining;
    const url = payment.success_redirect_url;
    return html`<div class="pay">
      <h2 tabindex="-1" class="done">${this.#t('paid')}</h2>
      <p>${this.#t('paidBody', { amount: this.#vnd(payment.amount_vnd) })}</p>
      ${payment.overpaid ? html`<p class="muted">${this.#t('overpaid')}</p>` : nothing}
      ${seconds !== null ? html`<p part="countdown" role="timer" aria-live="off">${this.#t('redirectIn', { seconds })}</p>` : nothing}
      ${url && isWebUrl(url)
        ? html`<button part="return-button" class="primary" type="button" @click=${this.#returnToMerchant}>${this.#t('returnToMerchant')}</button>`
        : nothing}
    </div>`;
  }

  #expired(view: CheckoutView): TemplateResult {
    return html`<h2 tabindex="-1">${this.#t('expired')}</h2>
      <p>${this.#t('expiredBody')}</p>
      ${this.actionError ? html`<p part="error" role="alert">${this.#t(`error_${this.actionError.code}`, { detail: this.actionError.message })}</p>` : nothing}
      <div class="actions">
        ${view.status === 'active'
          ? html`<button part="new-quote-button" class="primary" type="button" ?disabled=${this.busy} @click=${this.#newQuote}>${this.#t('newQuote')}</button>`
          : nothing}
        ${isWebUrl(view.failure_redirect_url) ? html`<button part="leave-button" type="button" @click=${this.#leave}>${this.#t('leave')}</button>` : nothing}
      </div>`;
  }

  #paidLate(view: CheckoutView): TemplateResult {
    return html`<h2 tabindex="-1">${this.#t('paidLate')}</h2>
      <p>${this.#t('paidLateBody')}</p>
      ${this.#backButton(view)}`;
  }
}

const STATUS_MESSAGES: Record<Payment['status'], MessageKey> = {
  awaiting_payment: 'awaitingPayment',
  confirming: 'confirming',
  underpaid: 'underpaid',
  paid: 'paid',
  expired: 'expired',
  paid_late: 'paidLate',
};

function methodKey(method: CheckoutMethod): string {
  return `${method.pmt_channel}:${method.pmt_method}`;
}

/** USDT on TRON first (the default choice), then the gateway's order. */
function sortedAssets(method: CheckoutMethod): CheckoutMethod['assets'] {
  const isDefault = (a: CheckoutMethod['assets'][number]) => a.asset === 'USDT' && a.network === 'TRON';
  return [...method.assets.filter(isDefault), ...method.assets.filter((a) => !isDefault(a))];
}

function defaultAsset(method: CheckoutMethod | undefined): string {
  const first = method && sortedAssets(method)[0];
  return first ? `${first.asset}:${first.network}` : '';
}

function trimmed(contact: Contact): Contact {
  return { name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone.trim() };
}

/** `m:ss` for the countdown. */
function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
