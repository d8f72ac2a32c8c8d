// Paid: what was paid, and the return to the merchant (automatic after a countdown, or at once with the button).
import { html, nothing, type TemplateResult } from 'lit';
import type { Payment } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/fields.js';
import { countdown, heading, type Ui } from './parts.js';

export interface PaidActions {
  /** Seconds until the automatic return; null when none is due. */
  seconds: number | null;
  onReturn: () => void;
}

export function paidView(ui: Ui, payment: Payment | null, { seconds, onReturn }: PaidActions): TemplateResult {
  const url = payment?.success_redirect_url;
  return html`<div class="pay">
    ${heading(ui.t('paid'), 'done')}
    ${payment ? html`<p>${ui.t('paidBody', { amount: ui.vnd(payment.amount_vnd) })}</p>` : nothing}
    ${payment?.overpaid ? html`<p class="muted">${ui.t('overpaid')}</p>` : nothing}
    ${seconds !== null ? countdown(ui.t('redirectIn', { seconds })) : nothing}
    ${url && isWebUrl(url) ? html`<button part="return-button" class="primary" type="button" @click=${onReturn}>${ui.t('returnToMerchant')}</button>` : nothing}
  </div>`;
}
