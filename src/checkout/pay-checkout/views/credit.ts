// What the order received through quotes now closed, and what is left. Only ever after a payment (a closed quote's
// money), so it travels in the later chunk (views/later.ts), which the element has loaded by then; the order and
// payment views get it drawn from there (pay-checkout.ts).
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView } from '../../../contract/checkout.js';
import { later } from '../../i18n/later.js';
import { creditOf } from '../state.js';
import type { Ui } from './parts.js';

/**
 * What the order received through quotes now closed and what is left, once something has (state.ts, creditOf); with
 * the order's total unless it shows just above (the order view).
 */
export function creditCard(ui: Ui, view: CheckoutView, withTotal = true): TemplateResult | typeof nothing {
  const credit = creditOf(view);
  return credit
    ? html`<dl part="credit" class="totals credit" data-received-vnd=${credit.received} data-left-vnd=${credit.left}>
        ${withTotal ? html`<div><dt>${ui.t('total')}</dt><dd>${ui.vnd(view.amount)}</dd></div>` : nothing}
        <div><dt>${later(ui.locale, 'creditReceived')}</dt><dd>${ui.vnd(credit.received)}</dd></div>
        <div><dt>${later(ui.locale, 'creditLeft')}</dt><dd>${ui.vnd(credit.left)}</dd></div>
      </dl>`
    : nothing;
}
