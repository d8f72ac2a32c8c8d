// What to send, where and how: the QR, the amount in crypto and VND with one-tap copies, the network, the rate-lock
// countdown, and for an address-only QR (TRON) the plain words that the amount must be typed. Once part of the
// payment has arrived (seen, or confirmed and underpaid) the same view asks for the remainder, in crypto and VND.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { qrCode } from '../../qr.js';
import { walletLinks } from '../../wallet-links.js';
import { amountToSend, assetName, awaitsConfirmation, clock, hasReceived, namedAsset, walletUri } from '../state.js';
import { amountCrypto, backButton, changeCoinButton, countdown, creditCard, heading, networkName, type Ui } from './parts.js';

export type Copyable = 'address' | 'amount' | 'hash';

export interface PaymentActions {
  /** The browser wallets' buttons (the wallet chunk's view), first of all; none without a wallet on the page. */
  wallets: TemplateResult | undefined;
  /** Seconds left on the rate lock; null when there is none. */
  seconds: number | null;
  /** What was just copied, so its button says so. */
  copied: Copyable | undefined;
  onCopy: (what: Copyable, text: string) => void;
  /** A touch screen (a phone, which cannot scan itself): the wallet links come first. */
  touch: boolean;
  /** Back to the coins, to pay in another. */
  onChangeCoin: () => void;
  onBack: () => void;
}

export function paymentView(ui: Ui, view: CheckoutView, payment: Payment, { wallets, seconds, copied, touch, onCopy, onChangeCoin, onBack }: PaymentActions): TemplateResult {
  const partial = hasReceived(payment);
  const toSend = amountToSend(payment);
  const wallet = walletUri(payment);
  const asset = namedAsset(view, payment);
  const network = networkName(ui, asset);
  // One text, not three: each expression of this prepared template costs the script bytes.
  const where = `${ui.t('address')} · ${assetName(asset)} · ${network}`;
  const title = payment.status === 'underpaid' ? ui.t('underpaid') : partial ? ui.t('partialSeen') : wallet ? ui.t('scanToPay') : ui.t('scanAddress');
  const amount = { amount: ui.crypto(toSend), asset: payment.asset };
  const links = html`<div part="wallet-links" class="actions" role="group" aria-label=${ui.t('walletApps')}>
    ${walletLinks(payment, asset, toSend, view.environment === 'live' && !asset.testnet).map(
      // A wallet's web link opens in a new tab, so that without the app this card stays; a scheme opens an app or nothing.
      (link) => html`<a part="wallet-link" class="button" href=${link.href} target=${link.href.startsWith('https:') ? '_blank' : '_self'} rel="noopener"
        >${link.name ? ui.t('openIn', { wallet: link.name }) : ui.t('openWallet')}</a
      >`,
    )}
  </div>`;
  const label = ui.t(wallet ? 'qrLabel' : 'qrAddressLabel', { ...amount, address: payment.address });
  return html`<div class="pay">
    ${heading(title)} ${wallets ?? nothing} ${touch ? links : nothing}
    ${partial
      ? html`<p part="received" data-received-crypto=${payment.received_crypto}>
          ${ui.t(awaitsConfirmation(payment) ? 'receivedUnconfirmed' : 'received', { amount: ui.crypto(payment.received_crypto), asset: payment.asset })}
        </p>`
      : nothing}
    ${creditCard(ui, view)}
    <canvas part="qr" role="img" aria-label=${label} ${qrCode(payment.payment_uri)}></canvas>
    <p class="muted">${partial ? ui.t('sendRemaining') : ui.t('sendExactly')}</p>
    ${partial
      ? html`<p part="amount-remaining" class="amount-big"><span data-remaining-crypto=${payment.remaining_crypto}>${ui.crypto(payment.remaining_crypto)}</span> ${payment.asset}</p>`
      : html`<p class="amount-big">${amountCrypto(ui, payment)}</p>`}
    <p part="amount-vnd">${ui.vnd(partial ? payment.remaining_vnd : payment.amount_vnd)}</p>
    ${wallet ? nothing : html`<p part="qr-note" role="note">${ui.t('qrNote', amount)}</p>`}
    <div class="actions">
      <button part="copy-amount" type="button" @click=${() => onCopy('amount', toSend)}>${copied === 'amount' ? ui.t('copied') : ui.t('copyAmount')}</button>
      <button part="copy-address" type="button" @click=${() => onCopy('address', payment.address)}>
        ${copied === 'address' ? ui.t('copied') : ui.t('copyAddress')}
      </button>
    </div>
    ${touch ? nothing : links}
    ${seconds !== null ? countdown(ui.t('rateLocked', { time: clock(seconds) })) : nothing}
    <p class="muted">${where}</p>
    <code part="address" data-address=${payment.address}>${payment.address}</code>
    <p part="network-warning" role="note">${ui.t('networkWarning', { asset: payment.asset, network })}</p>
    <p part="fee-note" class="muted">${ui.t('feeNote', amount)}</p>
    ${partial ? html`<p class="muted">${ui.t('amountDue')} ${amountCrypto(ui, payment)} (${ui.vnd(payment.amount_vnd)})</p>` : nothing}
    <p class="muted">${ui.t('rate', { asset: payment.asset, rate: ui.vnd(payment.rate as `${number}`) })}</p>
    <div class="actions">${changeCoinButton(ui, onChangeCoin)}</div>
    ${backButton(ui, view, onBack)}
  </div>`;
}
