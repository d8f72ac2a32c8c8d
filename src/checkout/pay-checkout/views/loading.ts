import { html, type TemplateResult } from 'lit';
import type { Ui } from './parts.js';

/** Said on the card's skeleton (the `skeleton` class on the card, pay-checkout.styles.ts), which keeps the order's place. */
export const loadingView = (ui: Ui): TemplateResult => html`<p class="muted">${ui.t('loading')}</p>`;
