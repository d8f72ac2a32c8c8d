// What several views show now and then: an error line, a countdown, the change of coin, the offline banner. Apart from parts.ts because the build prepares parts.ts's templates for the first paint
// (vite.config.ts, PREPARED), and a prepared template costs the script bytes that these, drawn after a wait or a
// failure, do not need to spend.
import { html, type TemplateResult } from 'lit';
import type { Failure } from '../state.js';
import type { Ui } from './parts.js';

/**
 * What went wrong, in the customer's language. The gateway's own detail is English: it is added to the English
 * message only, where it says more than the message (a refused payment or request).
 */
export function errorLine(ui: Ui, failure: Failure): TemplateResult {
  const detail = ui.locale === 'en' && (failure.code === 'conflict' || failure.code === 'invalid') ? ` ${failure.message}` : '';
  return html`<p part="error" role="alert">${ui.t(`error_${failure.code}`)}${detail}</p>`;
}

/** A countdown's line, announced by the live region at thresholds only, never every second. */
export const countdown = (text: string): TemplateResult => html`<p part="countdown" role="timer" aria-live="off">${text}</p>`;

/** Back to the coins, to pay in another (the payment and expired views). */
export const changeCoinButton = (ui: Ui, onChangeCoin: () => void): TemplateResult =>
  html`<button part="change-coin" class="link-button" type="button" @click=${onChangeCoin}>${ui.t('changeCoin')}</button>`;

/**
 * The gateway cannot be reached while a payment is followed: said at once (an alert), with a way to try now; the
 * stream's probes go on meanwhile (controllers/payment-stream.ts).
 */
export const offlineBanner = (ui: Ui, onCheckAgain: () => void): TemplateResult =>
  html`<div part="offline" role="alert">
    <span>${ui.t('offline')}</span>
    <button part="check-again" type="button" @click=${onCheckAgain}>${ui.t('checkAgain')}</button>
  </div>`;
