// /success and /failure: the merchant's redirect targets. They show each parameter the redirect carried and ask
// the demo's server whether the signature is genuine (it holds the client secret; this page never does).
import { html, render } from 'lit';
import { api, ApiError } from './lib/api.js';

/** What every signed redirect carries (src/merchant/redirect.ts, which is Node-only, so not imported here). */
const REDIRECT_PARAMS = ['payment_link_ref', 'merchant_order_id', 'status', 'signature'];

const host = document.getElementById('redirect')!;
const params = [...new URLSearchParams(location.search)];

function show(verdict: string, verified: boolean | undefined): void {
  const missing = REDIRECT_PARAMS.filter((name) => !params.some(([key]) => key === name));
  render(
    html`<section class="card" aria-labelledby="params-title">
        <h2 id="params-title">What the redirect carried</h2>
        ${params.length
          ? html`<table class="params">
              <thead><tr><th scope="col">Parameter</th><th scope="col">Value</th></tr></thead>
              <tbody>
                ${params.map(([key, value]) => html`<tr><th scope="row"><code>${key}</code></th><td class="mono wrap" data-param=${key}>${value}</td></tr>`)}
              </tbody>
            </table>`
          : html`<p>No query parameters: this page was opened directly, not by a checkout redirect.</p>`}
        ${missing.length ? html`<p class="muted">Missing: ${missing.join(', ')}.</p>` : ''}
      </section>
      <section class="card" aria-labelledby="signature-title">
        <h2 id="signature-title">Signature</h2>
        <p class="verdict ${verified === undefined ? '' : verified ? 'ok' : 'bad'}" role="status" data-verified=${String(verified ?? '')}>${verdict}</p>
        <p class="muted">
          The merchant's server checks <code>signature</code> with <code>verifyRedirect(url, clientSecret)</code> from the SDK before trusting
          <code>status</code>: anyone can type a URL, only the gateway can sign one.
        </p>
      </section>
      <p><a class="button secondary" href="/">Build another link</a> <a class="button secondary" href="/portal">Open the merchant portal</a></p>`,
    host,
  );
}

show('Checking the signature…', undefined);
try {
  const { verified } = await api<{ verified: boolean }>('/demo/api/redirects/verify', { body: { url: location.href }, anonymous: true });
  show(verified ? 'Signature verified: the gateway sent this redirect.' : 'Signature does NOT verify: do not trust this status.', verified);
} catch (error) {
  show(`The signature could not be checked: ${error instanceof ApiError ? error.message : String(error)}`, false);
}
