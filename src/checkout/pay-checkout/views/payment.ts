// What to send, where and how. In the order a customer paying from an exchange app on their phone needs it: the
// amount with its copy button, the network as a large chip with the warning beside it, the address with its copy
// button, the wallet links where an app can open them; then the QR (on a desktop the QR comes first: the styles
// decide by `pointer: coarse` and width, pay-checkout.styles.ts), the rate-lock countdown. "I pay from an exchange"
// (what to type so that the amount arrives after the exchange's fee) follows the address, from its chunk. Once
// part of the payment has arrived the same view asks for the remainder; what arrived and what to do about it come
// with the later chunk (views/later.ts, `remainder`).
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { qrCode } from '../../qr.js';
import { walletLinks } from '../../wallet-links.js';
import { amountToSend, hasReceived, namedAsset, walletUri, clock } from '../state.js';
import { amountCrypto, backButton, heading, networkName, type Ui } from './parts.js';
import { changeCoinButton, countdown } from './occasional.js';

/** `typed`: the amount to type at an exchange (views/from-exchange.ts). */
export type Copyable = 'address' | 'amount' | 'hash' | 'typed';

export interface PaymentActions {
  /** The browser wallets' buttons (the wallet chunk's view), first of all; none without a wallet on the page. */
  wallets: TemplateResult | undefined;
  /** Once money arrived: the heading and what arrived, from the later chunk (views/later.ts). */
  remainder: { title: string; notice: TemplateResult } | undefined;
  /** What closed quotes received (the later chunk's views/credit.ts); none before any. */
  credit: TemplateResult | typeof nothing | undefined;
  /** "I pay from an exchange" or the fee's warning (the from-exchange chunk's views/from-exchange.ts); none until it is here. */
  exchange: TemplateResult | undefined;
  /** Seconds left on the rate lock; null when there is none. */
  seconds: number | null;
  /** What was just copied, so its button says so. */
  copied: Copyable | undefined;
  onCopy: (what: Copyable, text: string) => void;
  /** Back to the coins, to pay in another. */
  onChangeCoin: () => void;
  onBack: () => void;
}

/** The network chip: the network in the customer's words and the token standard, as an exchange's list names them ("Mạng TRON (TRC-20)"). */
export function networkChip(ui: Ui, asset: ReturnType<typeof namedAsset>): string {
  const name = networkName(ui, asset);
  return `${name[0]!.toUpperCase()}${name.slice(1)}${asset.token_standard ? ` (${asset.token_standard})` : ''}`;
}

export function paymentView(ui: Ui, view: CheckoutView, payment: Payment, { wallets, remainder, credit, exchange, seconds, copied, onCopy, onChangeCoin, onBack }: PaymentActions): TemplateResult {
  const partial = hasReceived(payment);
  const toSend = amountToSend(payment);
  const wallet = walletUri(payment);
  const asset = namedAsset(view, payment);
  const amount = { amount: ui.crypto(toSend), asset: payment.asset };
  const links = walletLinks(payment, asset, toSend, view.environment === 'live' && !asset.testnet);
  const label = ui.t(wallet ? 'qrLabel' : 'qrAddressLabel', { ...amount, address: payment.address });
  // A phone cannot scan its own screen: its heading says what to do there instead (the styles show one of the two).
  const title = remainder
    ? remainder.title
    : html`<span class="on-desk">${ui.t(wallet ? 'scanToPay' : 'scanAddress')}</span><span class="on-phone">${ui.t('copyToPay')}</span>`;
  return html`<div class="pay">
    <div class="lead">${heading(title)} ${wallets ?? nothing} ${remainder?.notice ?? nothing} ${credit ?? nothing}</div>
    <p class="muted">${partial ? ui.t('sendRemaining') : ui.t('sendExactly')}</p>
    <div class="copy-row">
      ${partial
        ? html`<p part="amount-remaining" class="amount-big"><span data-remaining-crypto=${payment.remaining_crypto}>${ui.crypto(payment.remaining_crypto)}</span> ${payment.asset}</p>`
        : html`<p class="amount-big">${amountCrypto(ui, payment)}</p>`}
      <button part="copy-amount" type="button" @click=${() => onCopy('amount', toSend)}>${copied === 'amount' ? ui.t('copied') : ui.t('copyAmount')}</button>
    </div>
    <p part="amount-vnd">${ui.vnd(partial ? payment.remaining_vnd : payment.amount_vnd)}</p>
    <div part="network" class="network">
      <p part="network-chip">${networkChip(ui, asset)}</p>
      <p part="network-warning" role="note">${ui.t('networkWarning', { asset: payment.asset, network: networkName(ui, asset) })}</p>
    </div>
    <div class="copy-row">
      <code part="address" data-address=${payment.address}>${payment.address}</code>
      <button part="copy-address" type="button" @click=${() => onCopy('address', payment.address)}>
        ${copied === 'address' ? ui.t('copied') : ui.t('copyAddress')}
      </button>
    </div>
    ${exchange ?? nothing}
    ${links.length
      ? html`<div part="wallet-links" class="actions" role="group" aria-label=${ui.t('walletApps')}>
          ${links.map(
            // A wallet's web link opens in a new tab, so that without the app this card stays; a scheme opens an app or nothing.
            (link) => html`<a part="wallet-link" class="button" href=${link.href} target=${link.href.startsWith('https:') ? '_blank' : '_self'} rel="noopener"
              >${link.name ? ui.t('openIn', { wallet: link.name }) : ui.t('openWallet')}</a
            >`,
          )}
        </div>`
      : nothing}
    <canvas part="qr" role="img" aria-label=${label} ${qrCode(payment.payment_uri)}></canvas>
    ${wallet ? nothing : html`<p part="qr-note" role="note">${ui.t('qrNote', amount)}</p>`}
    ${seconds !== null ? countdown(ui.t('rateLocked', { time: clock(seconds) })) : nothing}
    <p class="muted">${ui.t('rate', { asset: payment.asset, rate: ui.rate(payment.rate) })}</p>
    <div class="actions">${changeCoinButton(ui, onChangeCoin)}</div>
    ${backButton(ui, view, onBack)}
  </div>`;
}
