// The link cannot be shown: unknown, expired (then back to the merchant after a countdown), or the gateway out of reach.
import { html, nothing, type TemplateResult } from 'lit';
import { canLeave, retryable, type Screen } from '../state.js';
import { heading, type Ui } from './parts.js';
import { countdown, errorLine } from './occasional.js';

export interface ErrorActions {
  /** Seconds until the automatic return to the merchant; null when none is due. */
  seconds: number | null;
  onRetry: () => void;
  onLeave: () => void;
}

export function errorView(ui: Ui, screen: Extract<Screen, { name: 'error' }>, { seconds, onRetry, onLeave }: ErrorActions): TemplateResult {
  const leave = canLeave(screen);
  return html`${heading(ui.t('errorTitle'))} ${errorLine(ui, screen.failure)}
    ${leave && seconds !== null ? countdown(ui.t('redirectIn', { seconds })) : nothing}
    <div class="actions">
      ${retryable(screen.failure.code) ? html`<button part="retry-button" class="primary" type="button" @click=${onRetry}>${ui.t('retry')}</button>` : nothing}
      ${leave ? html`<button part="leave-button" type="button" @click=${onLeave}>${ui.t('returnToMerchant')}</button>` : nothing}
    </div>`;
}
