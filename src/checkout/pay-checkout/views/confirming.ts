// Enough has arrived: the network confirms it, block by block.
import { html, type TemplateResult } from 'lit';
import type { Payment } from '../../../contract/checkout.js';
import { confirmationsSeen } from '../later-state.js';
import { amountCrypto, heading, type Ui } from './parts.js';
import { later } from '../../i18n/later.js';

export function confirmingView(ui: Ui, payment: Payment): TemplateResult {
  const seen = confirmationsSeen(payment);
  const required = payment.confirmations_required;
  return html`<div class="pay">
    ${heading(ui.t('confirming'))}
    <p class="amount-big">${amountCrypto(ui, payment)}</p>
    <p part="amount-vnd">${ui.vnd(payment.amount_vnd)}</p>
    <p part="confirmations" data-seen=${seen} data-required=${required}>${later(ui.locale, 'confirmations', { seen, required })}</p>
    <progress max=${required} .value=${Math.min(seen, required)} aria-label=${later(ui.locale, 'confirmations', { seen, required })}></progress>
  </div>`;
}
