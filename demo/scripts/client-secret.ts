// <client-secret-roll>: the merchant's client secret, rolled from the portal (POST /demo/api/client-secret/roll, which
// calls the gateway's roll, docs/api.md "Roll the client secret"). A dialog says what the roll ends and when; the new
// secret is shown once. The session that rolled goes on with it; every other session signed in with the old one ends.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { ClientSecretRoll } from '../../src/contract/index.js';
import { api } from './lib/api.js';
import { LightElement } from './lib/light-element.js';
import { SubmitController } from './lib/submit-controller.js';
import { copyText, select } from './lib/ui.js';

/** How long the old secret may go on, as Stripe's roll offers it (seconds; the gateway takes 0 to 7 days). */
const GRACES = [
  { value: '0', label: 'Now' },
  { value: '3600', label: 'In 1 hour' },
  { value: '86400', label: 'In 24 hours' },
  { value: '604800', label: 'In 7 days' },
] as const;

const MOMENT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * @summary Rolls the merchant's client secret, after a confirmation that names what it ends; shows the new one once.
 */
export class ClientSecretRollElement extends LightElement {
  @state() private grace = '0';
  @state() private rolled: ClientSecretRoll | undefined;
  @state() private notice = '';
  readonly #roll = new SubmitController(this, { problemId: 'roll-problem', subject: 'the new client secret' });

  #dialog = () => this.querySelector<HTMLDialogElement>('#roll-dialog')!;

  #ask(): void {
    this.grace = '0';
    this.#roll.reset();
    this.#dialog().showModal();
  }

  async #confirm(event: Event): Promise<void> {
    event.preventDefault();
    const rolled = await this.#roll.submit(() => api<ClientSecretRoll>('/demo/api/client-secret/roll', { body: { expires_in: Number(this.grace) } }));
    if (!rolled) return;
    this.rolled = rolled;
    this.notice = 'Rolled the client secret: the new one is shown below, this once.';
    this.#dialog().close();
    await this.updateComplete;
    this.querySelector<HTMLElement>('#new-secret-title')?.focus();
  }

  async #copy(secret: string): Promise<void> {
    this.notice = (await copyText(secret)) ? 'Copied the new client secret.' : 'The browser did not allow copying here: select the secret and copy it by hand.';
  }

  /** "Now" or "In 24 hours", as the dialog's sentence starts. */
  #when(): string {
    return GRACES.find((g) => g.value === this.grace)?.label ?? 'Now';
  }

  #dialogTemplate(): TemplateResult {
    return html`<dialog id="roll-dialog" aria-labelledby="roll-title">
      <form method="dialog" @submit=${this.#confirm}>
        <h2 id="roll-title">Roll the client secret?</h2>
        ${select({
          path: 'expires_in',
          label: 'The old secret ends',
          value: this.grace,
          options: GRACES,
          error: this.#roll.error('expires_in'),
          hint: 'A grace lets your servers change over one by one.',
          onChange: (value) => ((this.grace = value), this.#roll.changed('expires_in')),
        })}
        <p>
          A new secret is made and shown once. ${this.#when()}, the old one ends, and with it: the access tokens it issued (your servers' calls answer 401 until they use the new secret), payment links signed
          with it, and every other portal session signed in with it. This session goes on with the new secret.
        </p>
        ${this.#roll.problemBox()}
        <div class="buttons">
          <button type="submit" class="primary">${this.#roll.pending ? 'Rolling…' : 'Roll the secret'}</button>
          <button type="button" class="secondary" @click=${() => this.#dialog().close()}>Cancel</button>
        </div>
      </form>
    </dialog>`;
  }

  protected override render(): TemplateResult {
    const rolled = this.rolled;
    return html`<section aria-labelledby="client-secret-title">
      <h2 id="client-secret-title">Client secret</h2>
      <p class="status" role="status">${this.notice || nothing}</p>
      <p>Your servers sign in and sign payment links with it. Roll it when it may have leaked: the old one ends now, or after a grace.</p>
      ${rolled
        ? html`<div class="new-secret">
            <h3 id="new-secret-title" tabindex="-1">The new client secret of ${rolled.client_id}</h3>
            <p><code class="mono wrap" data-new-secret>${rolled.client_secret}</code></p>
            <p>
              Shown this once: keep it where your servers keep their credentials.
              ${rolled.previous_secret_expires_at
                ? `The old secret works until ${MOMENT.format(new Date(rolled.previous_secret_expires_at))}.`
                : 'The old secret no longer works.'}
            </p>
            <button type="button" class="secondary" @click=${() => this.#copy(rolled.client_secret)}>Copy the new secret</button>
          </div>`
        : nothing}
      <button type="button" class="secondary" @click=${() => this.#ask()}>Roll the client secret</button>
      ${this.#dialogTemplate()}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'client-secret-roll': ClientSecretRollElement;
  }
}

customElements.define('client-secret-roll', ClientSecretRollElement);
