// Money reached the address after its quote closed: acknowledged from the moment the gateway sees it, before any
// confirmation. It is held for the merchant, who decides (what next, and the payment's reference to ask with); nothing
// here sends the customer anywhere.
import { html, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { lateTransfers } from '../state.js';
import { backButton, heading, type Ui } from './parts.js';
import { heldNext, receipt, type Keep } from './receipt.js';
import { later } from '../../i18n/later.js';

export function lateView(ui: Ui, view: CheckoutView, payment: Payment, onBack: () => void, keep: Keep): TemplateResult {
  const late = lateTransfers(payment);
  const seen = Math.min(...late.map((t) => t.confirmations));
  const required = payment.confirmations_required;
  return html`${heading(later(ui.locale, 'late'))}
    <p>${later(ui.locale, 'lateBody')}</p>
    ${heldNext(ui, view, payment)}
    <p part="confirmations" data-seen=${seen} data-required=${required}>${later(ui.locale, 'confirmations', { seen: Math.min(seen, required), required })}</p>
    ${receipt(ui, view, payment, { crypto: payment.received_crypto, vnd: 0 }, keep)} ${backButton(ui, view, onBack)}`;
}
