// Paid: a receipt, and the return to the merchant, automatic after a visible countdown, at once with the button,
// or never if the customer chooses to stay.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import { excess } from '../later-state.js';
import { heading, type Ui } from './parts.js';
import { countdown } from './occasional.js';
import { receipt, type Keep } from './receipt.js';
import { later } from '../../i18n/later.js';

export interface PaidActions extends Keep {
  /** Seconds until the automatic return; null when none is due. */
  seconds: number | null;
  onReturn: () => void;
  onStay: () => void;
}

export function paidView(ui: Ui, view: CheckoutView, payment: Payment | null, { seconds, onReturn, onStay, ...keep }: PaidActions): TemplateResult {
  const url = payment?.success_redirect_url;
  const extra = payment?.overpaid ? excess(payment) : '0';
  return html`<div class="pay">
    <span part="success-mark" aria-hidden="true"></span> ${heading(ui.t('paid'), 'done')}
    ${payment
      ? html`<p>${later(ui.locale, 'paidBody', { amount: ui.vnd(payment.amount_vnd) })}</p>
          ${receipt(ui, view, payment, { crypto: payment.amount_crypto, vnd: payment.amount_vnd }, keep)}`
      : nothing}
    ${payment && extra !== '0'
      ? html`<p part="overpaid-amount" class="muted" data-overpaid-crypto=${extra}>${later(ui.locale, 'overpaid', { amount: ui.crypto(extra), asset: payment.asset, vnd: ui.vnd(payment.held_vnd) })}</p>`
      : nothing}
    ${seconds !== null ? countdown(ui.t('redirectIn', { seconds })) : nothing}
    <div class="actions">
      ${url && isWebUrl(url) ? html`<button part="return-button" class="primary" type="button" @click=${onReturn}>${ui.t('returnToMerchant')}</button>` : nothing}
      ${seconds !== null ? html`<button part="stay-button" type="button" @click=${onStay}>${later(ui.locale, 'stay')}</button>` : nothing}
    </div>
  </div>`;
}
