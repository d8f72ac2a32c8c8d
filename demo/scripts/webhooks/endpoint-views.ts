// The webhooks page's endpoints: the table of the merchant's endpoints with their signing secrets (masked until
// revealed) and each one's actions, an endpoint the gateway's URL rules refuse marked so, the form that adds one, and
// the dialog that asks before one is removed. Template functions only: the page (demo/scripts/webhooks.ts) holds the
// state and does the work.
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { WebhookEndpoint, WebhookUrlRule } from '../../../src/contract/index.js';
import type { SubmitController } from '../lib/submit-controller.js';
import { formatDate, input } from '../lib/ui.js';
import { formatMoment } from './delivery-views.js';

/** The rules an endpoint's URL keeps (WEBHOOK_URL_RULES), in words. */
const RULE_WORDS: Record<WebhookUrlRule, string> = {
  https: 'https: only',
  no_credentials: 'no user name or password in the URL',
  public_address: 'public addresses only',
};

/**
 * An endpoint a delivery found refused by a URL rule (one added before the rule, or whose host now resolves to a
 * private address): nothing goes to it, so the merchant is told which rule, why, and what to do.
 */
function refusedNote(endpoint: WebhookEndpoint): TemplateResult | typeof nothing {
  const refused = endpoint.refused;
  if (!refused) return nothing;
  return html`<p class="refused-note" data-refused=${refused.rule}>
    <span class="pill failed">refused</span> Nothing is sent here since ${formatMoment(refused.since)}: the rule
    <strong>${RULE_WORDS[refused.rule]}</strong> refuses it, as its URL ${refused.reason}. Add an endpoint that keeps the rule, then remove this one.
  </p>`;
}

function secretCell(endpoint: WebhookEndpoint, shown: boolean, toggle: () => void, copy: () => void): TemplateResult {
  return html`<div class="secret">
    ${shown
      ? html`<code class="wrap" data-secret>${endpoint.secret}</code>`
      : html`<span class="masked" aria-hidden="true">••••••••••••</span><span class="visually-hidden">hidden</span>`}
    <button type="button" class="secondary small" aria-pressed=${shown ? 'true' : 'false'} aria-label="Reveal the signing secret of ${endpoint.url}" @click=${toggle}>
      Reveal
    </button>
    <button type="button" class="secondary small" aria-label="Copy the signing secret of ${endpoint.url}" @click=${copy}>Copy</button>
  </div>`;
}

export interface EndpointsProps {
  endpoints: readonly WebhookEndpoint[];
  loading: boolean;
  loadError: string;
  /** The endpoint whose delivery log is shown. */
  selected: string | undefined;
  /** The endpoints whose secret is shown. */
  revealed: ReadonlySet<string>;
  /** The endpoints a test event is being queued for. */
  testing: ReadonlySet<string>;
  /** The add form's submit, its problem and field errors. */
  add: SubmitController;
  draftUrl: string;
  retryLoad: () => void;
  select: (endpointId: string) => void;
  toggleSecret: (endpointId: string) => void;
  copySecret: (endpoint: WebhookEndpoint) => void;
  sendTest: (endpoint: WebhookEndpoint) => void;
  askRemove: (endpoint: WebhookEndpoint) => void;
  draftInput: (url: string) => void;
  submit: (event: Event) => void;
}

export function endpointsSection(p: EndpointsProps): TemplateResult {
  return html`<section class="card" aria-labelledby="endpoints-title">
    <h2 id="endpoints-title" tabindex="-1">Endpoints</h2>
    ${p.loadError
      ? html`<p class="error-box" role="alert">
          ${p.loadError} <button type="button" class="secondary small" @click=${p.retryLoad}>Retry</button>
        </p>`
      : p.loading
        ? html`<p>Loading endpoints…</p>`
        : p.endpoints.length
          ? html`<div class="table-wrap">
              <table class="endpoints">
                <caption class="visually-hidden">Webhook endpoints</caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Created</th>
                    <th scope="col">Signing secret</th>
                    <th scope="col"><span class="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${repeat(
                    p.endpoints,
                    (e) => e.endpoint_id,
                    (e) => html`<tr data-endpoint=${e.endpoint_id} class=${e.endpoint_id === p.selected ? 'selected' : ''}>
                      <th scope="row" class="wrap"><span class="mono" data-url>${e.url}</span>${refusedNote(e)}</th>
                      <td>${formatDate(e.created_at)}</td>
                      <td>${secretCell(e, p.revealed.has(e.endpoint_id), () => p.toggleSecret(e.endpoint_id), () => p.copySecret(e))}</td>
                      <td>
                        <div class="buttons tight">
                          <button type="button" class="secondary small" aria-pressed=${e.endpoint_id === p.selected ? 'true' : 'false'} aria-label="Deliveries to ${e.url}" @click=${() => p.select(e.endpoint_id)}>
                            Deliveries
                          </button>
                          <button
                            type="button"
                            class="secondary small"
                            aria-label="Send test event to ${e.url}"
                            ?disabled=${p.testing.has(e.endpoint_id)}
                            @click=${() => p.sendTest(e)}
                          >
                            Send test event
                          </button>
                          <button type="button" class="secondary small" aria-label="Remove ${e.url}" @click=${() => p.askRemove(e)}>Remove</button>
                        </div>
                      </td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : html`<p>No endpoints yet: add one here, or the demo receiver below.</p>`}
    ${p.add.problemBox()}
    <form class="add-endpoint" novalidate @submit=${p.submit}>
      ${input({
        path: 'url',
        label: 'Endpoint URL',
        type: 'url',
        required: true,
        value: p.draftUrl,
        error: p.add.error('url'),
        hint: "https: to a public address (http: only for the demo's own receiver, below). Every event is POSTed there, signed with the secret it gets.",
        onInput: p.draftInput,
      })}
      <button type="submit" class="primary">${p.add.pending ? 'Adding…' : 'Add endpoint'}</button>
    </form>
  </section>`;
}

/** The dialog that asks before `endpoint` is removed; empty while none is asked about. */
export function removeDialog(endpoint: WebhookEndpoint | undefined, confirm: (event: Event) => void, closed: () => void, cancel: () => void): TemplateResult {
  return html`<dialog id="remove-dialog" aria-labelledby="remove-title" @close=${closed}>
    ${endpoint
      ? html`<form method="dialog" @submit=${confirm}>
          <h2 id="remove-title">Remove this endpoint?</h2>
          <p class="mono wrap">${endpoint.url}</p>
          <p>The gateway sends it no new events, and this page no longer lists it.</p>
          <div class="buttons">
            <button type="submit" class="primary">Remove</button>
            <button type="button" class="secondary" @click=${cancel}>Cancel</button>
          </div>
        </form>`
      : nothing}
  </dialog>`;
}
