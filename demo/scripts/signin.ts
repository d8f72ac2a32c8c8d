// /signin: the merchant signs in with its client id and client secret, or, on the machine that runs the sandbox,
// as the sandbox merchant in one click; then goes back to the page it came from.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { api } from './lib/api.js';
import { LightElement } from './lib/light-element.js';
import { SubmitController } from './lib/submit-controller.js';
import { input } from './lib/ui.js';

/** Back where the merchant was going, if that is a page of this site; else the link builder. */
function next(): string {
  const wanted = new URLSearchParams(location.search).get('next') ?? '/';
  const url = new URL(wanted, location.origin);
  return url.origin === location.origin ? url.pathname + url.search : '/';
}

/**
 * @summary The sign-in form, and the one-click sandbox sign-in where the server offers it.
 */
export class SignInForm extends LightElement {
  @state() private clientId = '';
  @state() private clientSecret = '';
  /** The one-click sign-in is offered on a loopback address of this machine only (the server says which). */
  @state() private sandboxSignIn = false;
  readonly #form = new SubmitController(this, { problemId: 'signin-problem', subject: 'the sign-in' });

  override connectedCallback(): void {
    super.connectedCallback();
    void api<{ sandbox_sign_in: boolean }>('/demo/sign-in').then((options) => (this.sandboxSignIn = options.sandbox_sign_in));
  }

  async #signIn(body: Record<string, unknown>): Promise<void> {
    if ((await this.#form.submit(() => api('/demo/sign-in', { body }).then(() => true))) === true) location.replace(next());
  }

  #submit(event: Event): void {
    event.preventDefault();
    void this.#signIn({ client_id: this.clientId.trim(), client_secret: this.clientSecret });
  }

  protected override render(): TemplateResult {
    const pending = this.#form.pending;
    return html`<section class="card" aria-labelledby="credentials-title">
        <h2 id="credentials-title">With your credentials</h2>
        ${this.#form.problemBox()}
        <form novalidate @submit=${this.#submit}>
          ${input({
            path: 'client_id',
            label: 'Client id',
            required: true,
            autocomplete: 'username',
            value: this.clientId,
            error: this.#form.error('client_id'),
            onInput: (v) => ((this.clientId = v), this.#form.changed('client_id')),
          })}
          ${input({
            path: 'client_secret',
            label: 'Client secret',
            type: 'password',
            required: true,
            autocomplete: 'current-password',
            value: this.clientSecret,
            error: this.#form.error('client_secret'),
            onInput: (v) => ((this.clientSecret = v), this.#form.changed('client_secret')),
          })}
          <button type="submit" class="primary" ?disabled=${pending}>${pending ? 'Signing in…' : 'Sign in'}</button>
        </form>
      </section>
      ${this.sandboxSignIn
        ? html`<section class="card" aria-labelledby="sandbox-title">
            <h2 id="sandbox-title">On this machine</h2>
            <p>You opened the sandbox at a loopback address, so the sandbox merchant needs no typing here.</p>
            <button type="button" class="primary" ?disabled=${pending} @click=${() => this.#signIn({ sandbox: true })}>Sign in as the sandbox merchant</button>
          </section>`
        : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'sign-in-form': SignInForm;
  }
}

customElements.define('sign-in-form', SignInForm);
