// The receipt of a payment the gateway has taken: the order, the amount in crypto and VND, the asset and network,
// every transaction hash and when it was paid.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { assetName, namedAsset } from '../state.js';
import { networkName, type Ui } from './parts.js';
import { later } from '../../i18n/later.js';

/** `amount`: what the receipt says was paid (the quote, or what arrived), in crypto and, when known, in VND. */
export function receipt(ui: Ui, view: CheckoutView, payment: Payment, amount: { crypto: string; vnd: number }): TemplateResult {
  const asset = namedAsset(view, payment);
  return html`<dl part="receipt" class="receipt">
    <div><dt>${later(ui.locale, 'receiptOrder')}</dt><dd>${view.merchant_order_id}</dd></div>
    <div>
      <dt>${later(ui.locale, 'receiptAmount')}</dt>
      <dd>
        <span data-amount-paid=${amount.crypto}>${ui.crypto(amount.crypto)}</span> ${assetName(asset)}
        ${amount.vnd ? html`<span class="muted">(${ui.vnd(amount.vnd)})</span>` : nothing}
      </dd>
    </div>
    <div><dt>${later(ui.locale, 'receiptNetwork')}</dt><dd>${networkName(ui, asset, view.sandbox)}</dd></div>
    <div class="hashes">
      <dt>${later(ui.locale, 'receiptTransactions')}</dt>
      ${payment.transactions.map((t) => html`<dd><code part="tx-hash" data-tx-hash=${t.tx_hash}>${t.tx_hash}</code></dd>`)}
    </div>
    ${payment.paid_at
      ? html`<div part="paid-at">
          <dt>${later(ui.locale, 'receiptTime')}</dt>
          <dd><time datetime=${payment.paid_at}>${ui.time(payment.paid_at)}</time></dd>
        </div>`
      : nothing}
  </dl>`;
}
