// What several views share: the language helpers they draw with, the header with the language switch, the
// heading that takes focus, the error line, the countdown line, the back button, amounts, and the footer.
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import type { Locale, MessageKey, Params } from '../../i18n/index.js';
import { creditOf, type Failure, type NamedAsset } from '../state.js';

/** The customer's language, as the views use it. */
export interface Ui {
  locale: Locale;
  t(key: MessageKey, params?: Params): string;
  vnd(amount: number | `${number}`): string;
  /** A crypto amount (the gateway's decimal string) with the locale's separators: `20,22` in vi. */
  crypto(amount: string): string;
  /** An instant (ISO 8601) as the customer reads dates and times. */
  time(iso: string): string;
  /** A country by its ISO 3166 code, in the customer's language. */
  region(code: string): string;
}

/** The view's heading: the one element a view change focuses (controllers/view-focus.ts). */
export const heading = (text: string, className?: string): TemplateResult => html`<h2 tabindex="-1" class=${ifDefined(className)}>${text}</h2>`;

/**
 * What went wrong, in the customer's language. The gateway's own detail is English: it is added to the English
 * message only, where it says more than the message (a refused payment or request).
 */
export function errorLine(ui: Ui, failure: Failure): TemplateResult {
  const detail = ui.locale === 'en' && (failure.code === 'conflict' || failure.code === 'invalid') ? ` ${failure.message}` : '';
  return html`<p part="error" role="alert">${ui.t(`error_${failure.code}`)}${detail}</p>`;
}

/** A countdown's line, announced by the live region at thresholds only, never every second. */
export const countdown = (text: string): TemplateResult => html`<p part="countdown" role="timer" aria-live="off">${text}</p>`;

export function backButton(ui: Ui, view: CheckoutView, onBack: () => void): TemplateResult | typeof nothing {
  const url = view.merchant_details.back_url;
  if (!view.show_back_button || !url || !isWebUrl(url)) return nothing;
  return html`<div class="actions">
    <button part="back-button" class="link-button" type="button" @click=${onBack}>${ui.t('back')}</button>
  </div>`;
}

/** A crypto amount with its ticker, in the locale's figures; `data-amount-crypto` holds the gateway's exact string. */
export const amountCrypto = (ui: Ui, payment: Payment): TemplateResult =>
  html`<span part="amount-crypto"><span data-amount-crypto=${payment.amount_crypto}>${ui.crypto(payment.amount_crypto)}</span> ${payment.asset}</span>`;

/** Back to the coins, to pay in another (the payment and expired views). */
export const changeCoinButton = (ui: Ui, onChangeCoin: () => void): TemplateResult =>
  html`<button part="change-coin" class="link-button" type="button" @click=${onChangeCoin}>${ui.t('changeCoin')}</button>`;

/**
 * What the order received through quotes now closed and what is left, once something has (state.ts, creditOf); with
 * the order's total unless it shows just above (the order view).
 */
export function creditCard(ui: Ui, view: CheckoutView, withTotal = true): TemplateResult | typeof nothing {
  const credit = creditOf(view);
  return credit
    ? html`<dl part="credit" class="totals credit" data-received-vnd=${credit.received} data-left-vnd=${credit.left}>
        ${withTotal ? html`<div><dt>${ui.t('total')}</dt><dd>${ui.vnd(view.amount)}</dd></div>` : nothing}
        <div><dt>${ui.t('creditReceived')}</dt><dd>${ui.vnd(credit.received)}</dd></div>
        <div><dt>${ui.t('creditLeft')}</dt><dd>${ui.vnd(credit.left)}</dd></div>
      </dl>`
    : nothing;
}

/**
 * The network an asset travels on, in the customer's words, as the gateway is configured: its `network_name` as a
 * proper name, said to be a test network when the view says so ("mạng thử nghiệm Ethereum Sepolia", "mạng Ethereum").
 * Never from the network's id: the same id names Sepolia on one gateway and chain 1 on another.
 */
export function networkName(ui: Ui, { network_name, testnet }: NamedAsset): string {
  return ui.t(testnet ? 'testNetwork' : 'network', { name: network_name });
}

/**
 * The merchant, the order, the sandbox badge and the language switch. On the hosted page it is the page's h1,
 * from the first frame; an embedded card shows it once the link is known.
 */
export function header(ui: Ui, view: CheckoutView | undefined, hosted: boolean, onSwitchLanguage: () => void): TemplateResult | typeof nothing {
  if (!view && !hosted) return nothing;
  const merchant = view?.merchant_details;
  const logo = merchant?.logo && isWebUrl(merchant.logo) ? merchant.logo : undefined;
  const badge = view?.environment === 'sandbox' ? html` <span part="badge">${ui.t('sandbox')}</span>` : nothing;
  const title = html`${merchant?.name || ui.t('checkout')}${view
    ? html`<span class="order-id">${ui.t('order', { order: view.merchant_order_id })}${badge}</span>`
    : nothing}`;
  const other: Locale = ui.locale === 'vi' ? 'en' : 'vi';
  // A div, not <header>: outside <main> a header is a banner landmark, and a page has one of those at most.
  return html`<div part="header">
    ${logo ? html`<img src=${logo} alt="" width="40" height="40" referrerpolicy="no-referrer" />` : nothing}
    ${hosted ? html`<h1 class="merchant">${title}</h1>` : html`<p class="merchant">${title}</p>`}
    <button part="language-switch" class="link-button" type="button" lang=${other} @click=${onSwitchLanguage}>${ui.t('otherLanguage')}</button>
  </div>`;
}

/** Where to get help (the merchant's site) and whose checkout this is. */
export function footer(ui: Ui, view: CheckoutView | undefined): TemplateResult {
  const url = view?.merchant_details.back_url;
  const merchant = view?.merchant_details.name || ui.t('theShop');
  return html`<div part="footer">
    ${url && isWebUrl(url)
      ? html`<a part="help-link" href=${url} target="_blank" rel="noopener noreferrer">${ui.t('help', { merchant })}</a>`
      : nothing}
    <span part="powered-by">${ui.t('poweredBy', { name: 'pay-checkout' })}</span>
  </div>`;
}
