// What several views share: the language helpers they draw with, the header, the heading that takes focus, the
// error line, the countdown line, the back button and the crypto amount.
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/fields.js';
import type { Locale, MessageKey, Params } from '../../i18n/index.js';
import type { Failure } from '../state.js';

/** The customer's language, as the views use it. */
export interface Ui {
  locale: Locale;
  t(key: MessageKey, params?: Params): string;
  vnd(amount: number | `${number}`): string;
}

/** The view's heading: the one element a view change focuses (controllers/view-focus.ts). */
export const heading = (text: string, className?: string): TemplateResult => html`<h2 tabindex="-1" class=${ifDefined(className)}>${text}</h2>`;

export const errorLine = (ui: Ui, failure: Failure): TemplateResult =>
  html`<p part="error" role="alert">${ui.t(`error_${failure.code}`, { detail: failure.message })}</p>`;

/** A countdown's line, announced by the live region at thresholds only, never every second. */
export const countdown = (text: string): TemplateResult => html`<p part="countdown" role="timer" aria-live="off">${text}</p>`;

export function backButton(ui: Ui, view: CheckoutView, onBack: () => void): TemplateResult | typeof nothing {
  const url = view.merchant_details.back_url;
  if (!view.show_back_button || !url || !isWebUrl(url)) return nothing;
  return html`<div class="actions">
    <button part="back-button" class="link-button" type="button" @click=${onBack}>${ui.t('back')}</button>
  </div>`;
}

export const amountCrypto = (payment: Payment): TemplateResult =>
  html`<span part="amount-crypto"><span data-amount-crypto=${payment.amount_crypto}>${payment.amount_crypto}</span> ${payment.asset}</span>`;

/** The merchant, the order and the sandbox badge; on the hosted page it is the page's h1, even before the link loads. */
export function header(ui: Ui, view: CheckoutView | undefined, hosted: boolean): TemplateResult | typeof nothing {
  if (!view && !hosted) return nothing;
  const merchant = view?.merchant_details;
  const logo = merchant?.logo && isWebUrl(merchant.logo) ? merchant.logo : undefined;
  const title = html`${merchant?.name || ui.t('checkout')}${view ? html`<span class="order-id">${ui.t('order', { order: view.merchant_order_id })}</span>` : nothing}`;
  // A div, not <header>: outside <main> a header is a banner landmark, and a page has one of those at most.
  return html`<div part="header">
    ${logo ? html`<img src=${logo} alt="" width="40" height="40" referrerpolicy="no-referrer" />` : nothing}
    ${hosted ? html`<h1 class="merchant">${title}</h1>` : html`<p class="merchant">${title}</p>`}
    ${view?.sandbox ? html`<span part="badge">${ui.t('sandbox')}</span>` : nothing}
  </div>`;
}
