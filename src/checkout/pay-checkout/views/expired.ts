// The quote ran out before the full payment arrived: a new quote (while the link is active) in the same coin or in
// another, or leave. What arrived in time counts for the order: the card says what was received and what is left,
// and the new quote asks only for that. The old address is not to be paid any more, and money already sent to it is
// still seen (counted, or held for the merchant once late).
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView } from '../../../contract/checkout.js';
import { isWebUrl } from '../../../contract/rules.js';
import { creditOf, type Failure } from '../state.js';
import { heading, type Ui } from './parts.js';
import { changeCoinButton, errorLine } from './occasional.js';
import { creditCard } from './credit.js';
import { later } from '../../i18n/later.js';

export interface ExpiredActions {
  busy: boolean;
  actionError: Failure | undefined;
  onNewQuote: () => void;
  onChangeCoin: () => void;
  onLeave: () => void;
}

export function expiredView(ui: Ui, view: CheckoutView, { busy, actionError, onNewQuote, onChangeCoin, onLeave }: ExpiredActions): TemplateResult {
  const credit = creditOf(view);
  const active = view.status === 'active';
  // With the link over there is no new quote to promise (state.ts shows an empty quote on an expired link as the error).
  return html`${heading(ui.t('expired'))}
    <p>${later(ui.locale, view.status === 'expired' ? 'linkExpiredCreditBody' : credit ? 'creditBody' : 'expiredBody')}</p>
    <p part="old-address">${later(ui.locale, 'oldAddress')}</p>
    ${creditCard(ui, view)} ${actionError ? errorLine(ui, actionError) : nothing}
    <div class="actions">
      ${active
        ? html`<button part="new-quote-button" class="primary" type="button" aria-disabled=${busy ? 'true' : 'false'} @click=${onNewQuote}>
              ${later(ui.locale, credit ? 'newQuoteRest' : 'newQuote')}
            </button>
            ${changeCoinButton(ui, onChangeCoin)}`
        : nothing}
      ${isWebUrl(view.failure_redirect_url) ? html`<button part="leave-button" type="button" @click=${onLeave}>${later(ui.locale, 'leave')}</button>` : nothing}
    </div>`;
}
