// What several views share: the language helpers they draw with, the header with the language switch, the
// heading that takes focus, the back button, amounts, and the footer. What they show only now and then is in
// occasional.ts.
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import { format, locales, type Locale, type MessageKey, type Params } from '../../i18n/index.js';
import type { NamedAsset } from '../state.js';

/** The customer's language, as the views use it. */
export interface Ui {
  locale: Locale;
  t(key: MessageKey, params?: Params): string;
  vnd(amount: number | `${number}`): string;
  /** A rate in VND per unit (the gateway's decimal string), its fraction kept: `26.218,25 ₫` in vi. */
  rate(rate: string): string;
  /** A crypto amount (the gateway's decimal string) with the locale's separators: `20,22` in vi. */
  crypto(amount: string): string;
  /** An instant (ISO 8601) as the customer reads dates and times. */
  time(iso: string): string;
  /** A country by its ISO 3166 code, in the customer's language. */
  region(code: string): string;
}

/** The view's heading: the one element a view change focuses (controllers/view-focus.ts). */
export const heading = (text: string | TemplateResult, className?: string): TemplateResult => html`<h2 tabindex="-1" class=${ifDefined(className)}>${text}</h2>`;

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

/**
 * The network an asset travels on, in the customer's words, as the gateway is configured: its `network_name` as a
 * proper name, said to be a test network when the view says so ("mạng thử nghiệm Ethereum Sepolia", "mạng Ethereum").
 * Never from the network's id: the same id names Sepolia on one gateway and chain 1 on another.
 */
export function networkName(ui: Ui, { network_name, testnet }: NamedAsset): string {
  return ui.t(testnet ? 'testNetwork' : 'network', { name: network_name });
}

/**
 * The merchant, the order, the sandbox badge and the language switch (a button for each other language of the
 * registry, i18n/locales.ts, named in it). On the hosted page it is the page's h1,
 * from the first frame; an embedded card shows it once the link is known.
 */
export function header(ui: Ui, view: CheckoutView | undefined, hosted: boolean, onSwitchLanguage: (locale: Locale) => void): TemplateResult | typeof nothing {
  if (!view && !hosted) return nothing;
  const merchant = view?.merchant_details;
  const logo = merchant?.logo && isWebUrl(merchant.logo) ? merchant.logo : undefined;
  const badge = view?.environment === 'sandbox' ? html` <span part="badge">${ui.t('sandbox')}</span>` : nothing;
  const title = html`${merchant?.name || ui.t('checkout')}${view
    ? html`<span class="order-id">${ui.t('order', { order: view.merchant_order_id })}${badge}</span>`
    : nothing}`;
  // A div, not <header>: outside <main> a header is a banner landmark, and a page has one of those at most.
  return html`<div part="header">
    ${logo ? html`<img src=${logo} alt="" width="40" height="40" referrerpolicy="no-referrer" />` : nothing}
    ${hosted ? html`<h1 class="merchant">${title}</h1>` : html`<p class="merchant">${title}</p>`}
    ${locales.filter((locale) => locale !== ui.locale).map(
      (locale) => html`<button part="language-switch" class="link-button" type="button" lang=${locale} @click=${() => onSwitchLanguage(locale)}>${format(locale, 'language')}</button>`,
    )}
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
