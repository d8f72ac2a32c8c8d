// "I pay from an exchange": what to type in the exchange's withdrawal form so that the amount due arrives once the
// exchange has taken its usual fee (the gateway's WITHDRAWAL_FEES, served as the asset's `withdrawal_fee`), with the
// fee and the tolerance said in one line and a copy button for that amount. A chunk beside the script, loaded in
// idle time once a payment is open (the script's budget holds the first QR): until it is here the payment view has
// no fee line, and an asset with no fee configured gets the general warning instead.
import { html, type TemplateResult } from 'lit';
import type { CheckoutView, Payment } from '../../../contract/checkout.js';
import { amountToType } from '../../exchange-fee.js';
import { fill, type Locale, type Params } from '../../i18n/index.js';
import * as LOCALES from '../../i18n/locales.js';
import { amountToSend, assetKey, namedAsset } from '../state.js';
import { networkName, type Ui } from './parts.js';

export type ExchangeKey = keyof typeof LOCALES.en.exchange;
// Each catalog's `exchange` part (locales/en.ts), which the builds keep in this chunk (scripts/locale-parts.ts).
const words = (locale: Locale, key: ExchangeKey, params?: Params) => fill(LOCALES[locale].exchange[key], params);

/** `50` basis points as the decimal string `0.5`, in integers. */
export function percentOfBps(bps: number): string {
  const fraction = String(bps % 100).padStart(2, '0').replace(/0+$/, '');
  return `${Math.floor(bps / 100)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * What to type at an exchange for `payment` (the remainder once part has arrived), or undefined when its asset has no
 * fee configured (or a zero one). The quote's step is the asset's `quote_decimals`, or the due amount's own places if
 * a gateway ever sends more.
 */
export function exchangeAmount(view: CheckoutView, payment: Payment): { due: string; fee: string; typed: string } | undefined {
  const asset = view.methods.flatMap((m) => m.assets).find((a) => assetKey(a) === assetKey(payment));
  const fee = asset?.withdrawal_fee;
  if (!asset || !fee || !/[1-9]/.test(fee)) return undefined;
  const due = amountToSend(payment);
  const decimals = Math.max(asset.quote_decimals, due.split('.')[1]?.length ?? 0);
  return { due, fee, typed: amountToType(due, fee, decimals) };
}

export interface ExchangeActions {
  /** Whether the amount to type was just copied, so its button says so. */
  copied: boolean;
  onCopy: (text: string) => void;
}

/** The disclosure "I pay from an exchange" with the amount to type, or the general warning when no fee is known. */
export function exchangePanel(ui: Ui, view: CheckoutView, payment: Payment, { copied, onCopy }: ExchangeActions): TemplateResult {
  const figures = exchangeAmount(view, payment);
  if (!figures) return html`<p part="fee-note" class="muted">${words(ui.locale, 'feeNote', { amount: ui.crypto(amountToSend(payment)), asset: payment.asset })}</p>`;
  const { due, fee, typed } = figures;
  const line = words(ui.locale, 'feeLine', { fee: ui.crypto(fee), asset: payment.asset, network: networkName(ui, namedAsset(view, payment)), typed: ui.crypto(typed), amount: ui.crypto(due) });
  // A gateway older than `tolerance_bps` does not say it: the line says the fee alone then.
  const tolerance = view.tolerance_bps ? words(ui.locale, 'tolerance', { tolerance: ui.crypto(percentOfBps(view.tolerance_bps)) }) : '';
  return html`<details part="from-exchange">
    <summary>${words(ui.locale, 'fromExchange')}</summary>
    <p>${words(ui.locale, 'typeAtExchange')}</p>
    <div class="copy-row">
      <p part="amount-to-type" class="amount-big"><span data-amount-to-type=${typed}>${ui.crypto(typed)}</span> ${payment.asset}</p>
      <button part="copy-amount-to-type" type="button" @click=${() => onCopy(typed)}>${copied ? ui.t('copied') : words(ui.locale, 'copyTyped', { amount: ui.crypto(typed) })}</button>
    </div>
    <p part="fee-line" class="muted">${line}${tolerance}</p>
  </details>`;
}
