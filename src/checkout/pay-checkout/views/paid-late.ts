// The full payment came after the quote expired: held for the merchant, who decides. No redirect.
import { html, type TemplateResult } from 'lit';
import type { CheckoutView } from '../../../contract/checkout.js';
import { backButton, heading, type Ui } from './parts.js';

export const paidLateView = (ui: Ui, view: CheckoutView, onBack: () => void): TemplateResult =>
  html`${heading(ui.t('paidLate'))}
    <p>${ui.t('paidLateBody')}</p>
    ${backButton(ui, view, onBack)}`;
