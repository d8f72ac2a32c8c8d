// Small pieces every demo page uses. Templates are lit-html: every value is set as text, never parsed as HTML.
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';

export interface InputOptions {
  /** The field's path in the request (`billing_details.billing_email`): its id, and where its errors land. */
  path: string;
  label: string;
  value: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'number' | 'password' | 'search' | 'date';
  error?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  inputmode?: 'numeric' | 'decimal';
  disabled?: boolean;
  onInput: (value: string) => void;
}

/** `billing_details.billing_address.city` → a usable id. */
export const fieldId = (path: string) => `f-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** What every labelled control shows around itself: the label, a hint and an error, tied to it by id. */
function labelled(
  o: { path: string; label: string; required?: boolean; hint?: string; error?: string },
  control: (id: string, describedBy: string | undefined) => TemplateResult,
): TemplateResult {
  const id = fieldId(o.path);
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field ${o.error ? 'invalid' : ''}">
    <label for=${id}>${o.label}${o.required ? html`<span class="req" aria-hidden="true"> *</span>` : nothing}</label>
    ${control(id, described || undefined)} ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : nothing}
    ${o.error ? html`<p class="error" id="${id}-error">${o.error}</p>` : nothing}
  </div>`;
}

export function input(o: InputOptions): TemplateResult {
  return labelled(
    o,
    (id, describedBy) => html`<input
      id=${id}
      name=${o.path}
      type=${o.type ?? 'text'}
      inputmode=${ifDefined(o.inputmode)}
      autocomplete=${o.autocomplete ?? 'off'}
      aria-invalid=${o.error ? 'true' : 'false'}
      aria-describedby=${ifDefined(describedBy)}
      ?required=${o.required}
      ?disabled=${o.disabled}
      .value=${live(o.value)}
      @input=${(e: Event) => o.onInput((e.target as HTMLInputElement).value)}
    />`,
  );
}

export interface SelectOptions {
  path: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  error?: string;
  hint?: string;
  required?: boolean;
  onChange: (value: string) => void;
}

export function select(o: SelectOptions): TemplateResult {
  return labelled(
    o,
    (id, describedBy) => html`<select
      id=${id}
      name=${o.path}
      aria-invalid=${o.error ? 'true' : 'false'}
      aria-describedby=${ifDefined(describedBy)}
      ?required=${o.required}
      @change=${(e: Event) => o.onChange((e.target as HTMLSelectElement).value)}
    >
      ${o.options.map((option) => html`<option value=${option.value} ?selected=${option.value === o.value}>${option.label}</option>`)}
    </select>`,
  );
}

export function checkbox(o: { path: string; label: string; checked: boolean; hint?: string; onChange: (checked: boolean) => void }): TemplateResult {
  const id = fieldId(o.path);
  return html`<div class="check">
    <input
      id=${id}
      name=${o.path}
      type="checkbox"
      aria-describedby=${ifDefined(o.hint ? `${id}-hint` : undefined)}
      .checked=${live(o.checked)}
      @change=${(e: Event) => o.onChange((e.target as HTMLInputElement).checked)}
    />
    <label for=${id}>${o.label}</label>
    ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : nothing}
  </div>`;
}

export { formatVnd } from './vnd.js';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso: string | null) => (iso ? DATE.format(new Date(iso)) : '—');

/** Copies text; resolves to false where the clipboard is not available (http on another host), so the page can say so. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
