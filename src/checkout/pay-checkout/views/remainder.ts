// A payment part of which has arrived (seen, or confirmed and underpaid): the heading, what arrived, and for an
// underpayment what exactly is missing and the two ways on (the checkout API's: the rest to the same address while
// the quote is open, or what arrived kept for the order and refunded by the merchant; docs/payment-lifecycle.md).
// In the later chunk: the payment view (payment.ts) draws it once the chunk is here.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { later } from '../../i18n/later.js';
import { awaitsConfirmation } from '../state.js';
import { amountCrypto, type Ui } from './parts.js';

export function remainder(ui: Ui, view: CheckoutView, payment: Payment): { title: string; notice: TemplateResult } {
  const underpaid = payment.status === 'underpaid';
  const received = { amount: ui.crypto(payment.received_crypto), asset: payment.asset };
  const notice = html`<p part="received" data-received-crypto=${payment.received_crypto}>
      ${ui.t(awaitsConfirmation(payment) ? 'receivedUnconfirmed' : 'received', received)}
    </p>
    ${underpaid
      ? html`<p part="missing" data-missing-crypto=${payment.remaining_crypto}>
          ${later(ui.locale, 'missing', {
            amount: ui.crypto(payment.remaining_crypto),
            asset: payment.asset,
            vnd: ui.vnd(payment.remaining_vnd),
            time: ui.time(payment.quote_expires_at),
            merchant: view.merchant_details.name || ui.t('theShop'),
          })}
        </p>`
      : nothing}
    <p class="muted">${later(ui.locale, 'amountDue')} ${amountCrypto(ui, payment)} (${ui.vnd(payment.amount_vnd)})</p>`;
  return { title: underpaid ? ui.t('underpaid') : later(ui.locale, 'partialSeen'), notice };
}
