// What to send, where and how: the QR, the amount in crypto and VND with one-tap copies, the network, the rate-lock
// countdown, and for an address-only QR (TRON) the plain words that the amount must be typed. Once part of the
// payment has arrived (seen, or confirmed and underpaid) the same view asks for the remainder, in crypto and VND.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { qrCode } from '../../qr.js';
import { amountToSend, assetName, awaitsConfirmation, clock, hasReceived, namedAsset, walletUri } from '../state.js';
import { amountCrypto, backButton, countdown, heading, networkName, type Ui } from './parts.js';

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
  const partial = hasReceived(payment);
  const toSend = amountToSend(payment);
  const wallet = walletUri(payment);
  const asset = namedAsset(view, payment);
  const network = networkName(ui, asset, view.sandbox);
  // One text, not three: each expression of this prepared template costs the script bytes.
  const where = `${ui.t('address')} · ${assetName(asset)} · ${network}`;
  const title = payment.status === 'underpaid' ? ui.t('underpaid') : partial ? ui.t('partialSeen') : wallet ? ui.t('scanToPay') : ui.t('scanAddress');
  const label = wallet
    ? ui.t('qrLabel', { amount: toSend, asset: payment.asset, address: payment.address })
    : ui.t('qrAddressLabel', { amount: toSend, asset: payment.asset, address: payment.address });
  return html`<div class="pay">
    ${heading(title)}
    ${partial
      ? html`<p part="received" data-received-crypto=${payment.received_crypto}>
          ${ui.t(awaitsConfirmation(payment) ? 'receivedUnconfirmed' : 'received', { amount: payment.received_crypto, asset: payment.asset })}
        </p>`
      : nothing}
    <canvas part="qr" role="img" aria-label=${label} ${qrCode(payment.payment_uri)}></canvas>
    <p class="muted">${partial ? ui.t('sendRemaining') : ui.t('sendExactly')}</p>
    ${partial
      ? html`<p part="amount-remaining" class="amount-big"><span data-remaining-crypto=${payment.remaining_crypto}>${payment.remaining_crypto}</span> ${payment.asset}</p>`
      : html`<p class="amount-big">${amountCrypto(payment)}</p>`}
    <p part="amount-vnd">${ui.vnd(partial ? payment.remaining_vnd : payment.amount_vnd)}</p>
    ${wallet ? nothing : html`<p part="qr-note" role="note">${ui.t('qrNote', { amount: toSend, asset: payment.asset })}</p>`}
    <div class="actions">
      <button part="copy-amount" type="button" @click=${() => onCopy('amount', toSend)}>${copied === 'amount' ? ui.t('copied') : ui.t('copyAmount')}</button>
      <button part="copy-address" type="button" @click=${() => onCopy('address', payment.address)}>
        ${copied === 'address' ? ui.t('copied') : ui.t('copyAddress')}
      </button>
      ${wallet ? html`<a part="wallet-link" class="button primary" href=${wallet}>${ui.t('openWallet')}</a>` : nothing}
    </div>
    ${seconds !== null ? countdown(ui.t('rateLocked', { time: clock(seconds) })) : nothing}
    <p class="muted">${where}</p>
    <code part="address" data-address=${payment.address}>${payment.address}</code>
    <p part="network-warning" role="note">${ui.t('networkWarning', { asset: payment.asset, network })}</p>
    <p part="fee-note" class="muted">${ui.t('feeNote', { amount: toSend, asset: payment.asset })}</p>
    ${partial ? html`<p class="muted">${ui.t('amountDue')} ${amountCrypto(payment)} (${ui.vnd(payment.amount_vnd)})</p>` : nothing}
    <p class="muted">${ui.t('rate', { asset: payment.asset, rate: ui.vnd(payment.rate as `${number}`) })}</p>
    ${backButton(ui, view, onBack)}
  </div>`;
}
