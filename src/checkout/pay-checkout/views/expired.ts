// The quote ran out before the full payment arrived: a new quote (while the link is active), or leave.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import type { Failure } from '../state.js';
import { errorLine, heading, type Ui } from './parts.js';

export interface ExpiredActions {
  busy: boolean;
  actionError: Failure | undefined;
  onNewQuote: () => void;
  onLeave: () => void;
}

export function expiredView(ui: Ui, view: CheckoutView, { busy, actionError, onNewQuote, onLeave }: ExpiredActions): TemplateResult {
  return html`${heading(ui.t('expired'))}
    <p>${ui.t('expiredBody')}</p>
    ${actionError ? errorLine(ui, actionError) : nothing}
    <div class="actions">
      ${view.status === 'active'
        ? html`<button part="new-quote-button" class="primary" type="button" aria-disabled=${busy ? 'true' : 'false'} @click=${onNewQuote}>
            ${ui.t('newQuote')}
          </button>`
        : nothing}
      ${isWebUrl(view.failure_redirect_url) ? html`<button part="leave-button" type="button" @click=${onLeave}>${ui.t('leave')}</button>` : nothing}
    </div>`;
}
