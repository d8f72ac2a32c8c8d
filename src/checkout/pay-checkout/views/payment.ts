// What to send, where and how: the QR, the amount in crypto and VND, copy buttons, the wallet link, the network
// warning and the rate-lock countdown. Underpaid is the same view asking for the remainder.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { qrCode } from '../../qr.js';
import { amountToSend, clock, walletUri } from '../state.js';
import { amountCrypto, backButton, countdown, heading, type Ui } from './parts.js';

export type Copyable = 'address' | 'amount';

export interface PaymentActions {
  /** Seconds left on the rate lock; null when there is none. */
  seconds: number | null;
  /** What was just copied, so its button says so. */
  copied: Copyable | undefined;
  onCopy: (what: Copyable, text: string) => void;
  onBack: () => void;
}

export function paymentView(ui: Ui, view: CheckoutView, payment: Payment, { seconds, copied, onCopy, onBack }: PaymentActions): TemplateResult {
  const underpaid = payment.status === 'underpaid';
  const toSend = amountToSend(payment);
  const wallet = walletUri(payment);
  return html`<div class="pay">
    ${heading(underpaid ? ui.t('underpaid') : ui.t('scanToPay'))}
    ${underpaid
      ? html`<p>${ui.t('underpaidBody', { received: payment.received_crypto, remaining: payment.remaining_crypto, asset: payment.asset })}</p>`
      : nothing}
    <canvas part="qr" role="img" aria-label=${ui.t('qrLabel', { amount: toSend, asset: payment.asset, address: payment.address })} ${qrCode(payment.payment_uri)}></canvas>
    ${underpaid
      ? html`<p class="muted">${ui.t('sendRemaining')}</p>
          <p part="amount-remaining"><span data-remaining-crypto=${payment.remaining_crypto}>${payment.remaining_crypto}</span> ${payment.asset}</p>
          <p class="muted">${ui.t('amountDue')} ${amountCrypto(payment)}</p>`
      : html`<p class="muted">${ui.t('sendExactly')}</p>
          <p class="amount-big">${amountCrypto(payment)}</p>`}
    <p part="amount-vnd">${ui.vnd(payment.amount_vnd)}</p>
    ${seconds !== null ? countdown(ui.t('rateLocked', { time: clock(seconds) })) : nothing}
    <p class="muted">${ui.t('address')}</p>
    <code part="address" data-address=${payment.address}>${payment.address}</code>
    <div class="actions">
      <button part="copy-address" type="button" @click=${() => onCopy('address', payment.address)}>
        ${copied === 'address' ? ui.t('copied') : ui.t('copyAddress')}
      </button>
      <button part="copy-amount" type="button" @click=${() => onCopy('amount', toSend)}>${copied === 'amount' ? ui.t('copied') : ui.t('copyAmount')}</button>
      ${wallet ? html`<a part="wallet-link" class="button primary" href=${wallet}>${ui.t('openWallet')}</a>` : nothing}
    </div>
    <p part="network-warning" role="note">${ui.t('networkWarning', { label: assetLabel(view, payment) })}</p>
    <p class="muted">${ui.t('awaitingPayment')}</p>
    <p class="muted">${ui.t('rate', { asset: payment.asset, rate: ui.vnd(payment.rate as `${number}`) })}</p>
    ${backButton(ui, view, onBack)}
  </div>`;
}

function assetLabel(view: CheckoutView, payment: Payment): string {
  const asset = view.methods.flatMap((m) => m.assets).find((a) => a.asset === payment.asset && a.network === payment.network);
  return asset?.label ?? `${payment.asset} (${payment.network})`;
}
