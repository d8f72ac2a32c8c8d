import { html, type TemplateResult } from 'lit';
import type { Ui } from './parts.js';

export const loadingView = (ui: Ui): TemplateResult => html`<div class="spinner" aria-hidden="true"></div>
  <p class="muted">${ui.t('loading')}</p>`;
