// /signin: the merchant signs in with its client id and client secret, or, on the machine that runs the sandbox,
// as the sandbox merchant in one click; then goes back to the page it came from.
import { html, nothing, render } from 'lit';
import { api, ApiError } from './lib/api.js';
import { fieldId, input } from './lib/ui.js';

const state = {
  clientId: '',
  clientSecret: '',
  errors: new Map<string, string>(),
  problem: '',
  sending: false,
  /** The one-click sign-in is offered on a loopback address of this machine only (the server says which). */
  sandboxSignIn: false,
};

const host = document.getElementById('signin')!;

/** Back where the merchant was going, if that is a page of this site; else the link builder. */
function next(): string {
  const wanted = new URLSearchParams(location.search).get('next') ?? '/';
  const url = new URL(wanted, location.origin);
  return url.origin === location.origin ? url.pathname + url.search : '/';
}

async function signIn(body: Record<string, unknown>): Promise<void> {
  state.errors.clear();
  state.problem = '';
  state.sending = true;
  update();
  try {
    await api('/demo/sign-in', { body });
    location.replace(next());
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    for (const e of error.fieldErrors) state.errors.set(e.path, e.message);
    state.problem = error.fieldErrors.length ? '' : error.message;
    state.sending = false;
    update();
    document.getElementById(state.problem ? 'signin-problem' : fieldId([...state.errors.keys()][0] ?? 'client_id'))?.focus();
  }
}

function submit(event: Event): void {
  event.preventDefault();
  void signIn({ client_id: state.clientId.trim(), client_secret: state.clientSecret });
}

function update(): void {
  render(
    html`<section class="card" aria-labelledby="credentials-title">
        <h2 id="credentials-title">With your credentials</h2>
        ${state.problem ? html`<p class="error-box" id="signin-problem" tabindex="-1" role="alert">${state.problem}</p>` : nothing}
        <form novalidate @submit=${submit}>
          ${input({
            path: 'client_id',
            label: 'Client id',
            required: true,
            autocomplete: 'username',
            value: state.clientId,
            error: state.errors.get('client_id'),
            onInput: (v) => (state.clientId = v),
          })}
          ${input({
            path: 'client_secret',
            label: 'Client secret',
            type: 'password',
            required: true,
            autocomplete: 'current-password',
            value: state.clientSecret,
            error: state.errors.get('client_secret'),
            onInput: (v) => (state.clientSecret = v),
          })}
          <button type="submit" class="primary" ?disabled=${state.sending}>${state.sending ? 'Signing in…' : 'Sign in'}</button>
        </form>
      </section>
      ${state.sandboxSignIn
        ? html`<section class="card" aria-labelledby="sandbox-title">
            <h2 id="sandbox-title">On this machine</h2>
            <p>You opened the sandbox at a loopback address, so the sandbox merchant needs no typing here.</p>
            <button type="button" class="primary" ?disabled=${state.sending} @click=${() => signIn({ sandbox: true })}>Sign in as the sandbox merchant</button>
          </section>`
        : nothing}`,
    host,
  );
}

update();
const options = await api<{ sandbox_sign_in: boolean }>('/demo/sign-in');
state.sandboxSignIn = options.sandbox_sign_in;
update();
