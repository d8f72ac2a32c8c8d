// The receipt of a payment the gateway has taken: the order, the amount in crypto and VND, the asset and network,
// every transaction hash (a copy button, and its page on the network's explorer when the gateway names one) and when
// it was paid; and the receipt page to open again, print or save (the view's `receipt_url`).
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { namedAsset } from '../state.js';
import { assetName } from '../later-state.js';
import { isWebUrl } from '../../../contract/rules.js';
import { transactionUrl } from '../../../contract/explorer.js';
import { networkName, type Ui } from './parts.js';
import type { Copyable } from './payment.js';
import { later } from '../../i18n/later.js';

/** What the customer can do with a receipt: copy a transaction hash. */
export interface Keep {
  copied: Copyable | undefined;
  onCopy: (what: Copyable, text: string) => void;
}

/**
 * What happens to money held for the merchant (late, paid late): the gateway sets no time for the merchant's decision,
 * so the line says who decides and what, that they contact the customer, and the payment's reference to ask them with.
 */
export const heldNext = (ui: Ui, view: CheckoutView, payment: Payment): TemplateResult =>
  html`<p part="held-next">
    ${later(ui.locale, 'heldNext', { merchant: view.merchant_details.name || ui.t('theShop') })} <code part="reference">${payment.payment_id}</code>
  </p>`;

/** `amount`: what the receipt says was paid (the quote, or what arrived), in crypto and, when known, in VND. */
export function receipt(ui: Ui, view: CheckoutView, payment: Payment, amount: { crypto: string; vnd: number }, keep: Keep): TemplateResult {
  const asset = namedAsset(view, payment);
  const page = view.receipt_url && isWebUrl(view.receipt_url) ? view.receipt_url : undefined;
  return html`<dl part="receipt" class="receipt">
    <div><dt>${later(ui.locale, 'receiptOrder')}</dt><dd>${view.merchant_order_id}</dd></div>
    <div>
      <dt>${later(ui.locale, 'receiptAmount')}</dt>
      <dd>
        <span data-amount-paid=${amount.crypto}>${ui.crypto(amount.crypto)}</span> ${assetName(asset)}
        ${amount.vnd ? html`<span class="muted">(${ui.vnd(amount.vnd)})</span>` : nothing}
      </dd>
    </div>
    <div><dt>${later(ui.locale, 'receiptNetwork')}</dt><dd>${networkName(ui, asset)}</dd></div>
    <div class="hashes">
      <dt>${later(ui.locale, 'receiptTransactions')}</dt>
      ${payment.transactions.map((t) => {
        const explorer = transactionUrl(asset.explorer_tx_url, t.tx_hash);
        return html`<dd>
          <code part="tx-hash" data-tx-hash=${t.tx_hash}>${t.tx_hash}</code>
          <span class="tx-actions">
            <button part="copy-hash" class="link-button" type="button" @click=${() => keep.onCopy('hash', t.tx_hash)}>
              ${keep.copied === 'hash' ? ui.t('copied') : later(ui.locale, 'copyHash')}
            </button>
            ${explorer
              ? html`<a part="explorer-link" href=${explorer} target="_blank" rel="noopener noreferrer">${later(ui.locale, 'viewOnExplorer')}</a>`
              : nothing}
          </span>
        </dd>`;
      })}
    </div>
    ${payment.paid_at
      ? html`<div part="paid-at">
          <dt>${later(ui.locale, 'receiptTime')}</dt>
          <dd><time datetime=${payment.paid_at}>${ui.time(payment.paid_at)}</time></dd>
        </div>`
      : nothing}
  </dl>
  ${page
    ? html`<p><a part="receipt-link" href=${page} target="_blank" rel="noopener noreferrer">${later(ui.locale, 'openReceipt')}</a></p>`
    : nothing}`;
}
