// The full payment came after the quote expired: held for the merchant, who decides. A receipt, no redirect.
import { html, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { backButton, heading, type Ui } from './parts.js';
import { heldNext, receipt, type Keep } from './receipt.js';
import { later } from '../../i18n/later.js';

export const paidLateView = (ui: Ui, view: CheckoutView, payment: Payment, onBack: () => void, keep: Keep): TemplateResult =>
  html`${heading(ui.t('paid_late'))}
    <p>${later(ui.locale, 'paidLateBody')}</p>
    ${heldNext(ui, view, payment)}
    ${receipt(ui, view, payment, { crypto: payment.received_crypto, vnd: payment.held_vnd }, keep)} ${backButton(ui, view, onBack)}`;
