// The merchant portal's webhooks page (issue "Merchant-side truth"): the merchant's endpoints with their signing
// secrets, an endpoint's delivery log with manual redelivery, and the demo's own receiver, which verifies each
// delivery as a merchant's server would. The demo's server calls the gateway; this page never holds credentials.
import { html, nothing, render, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { isWebUrl, type WebhookDelivery, type WebhookEndpoint } from '../../src/contract/index.js';
import type { WebhookReceipt } from '../server.js';
import { api, ApiError } from './lib/api.js';
import { showSession } from './lib/session.js';
import { copyText, formatDate, input } from './lib/ui.js';

/** demo/server.ts's RECEIVER_PATH (not imported: that module is the server's). */
const RECEIVER_URL = new URL('/demo/webhook-receiver', location.origin).href;
/** The gateway takes http: endpoints on the loopback host only, so the receiver is offered only where it may be added. */
const RECEIVER_ALLOWED = isWebUrl(RECEIVER_URL);
const AUTO_REFRESH_MS = 2000;

const state = {
  endpoints: [] as WebhookEndpoint[],
  loading: true,
  loadError: '',
  /** The endpoint whose delivery log is shown. */
  selected: undefined as string | undefined,
  revealed: new Set<string>(),
  draftUrl: '',
  urlError: undefined as string | undefined,
  receiverError: undefined as string | undefined,
  adding: false,
  /** The endpoint the removal dialog asks about. */
  removing: undefined as WebhookEndpoint | undefined,
  deliveries: [] as WebhookDelivery[],
  deliveriesError: '',
  refreshedAt: undefined as Date | undefined,
  refreshing: false,
  redelivering: new Set<number>(),
  receipts: [] as WebhookReceipt[],
  autoRefresh: true,
  /** The last thing done, for the live region. */
  notice: '',
};

const host = document.getElementById('webhooks')!;
const selectedEndpoint = () => state.endpoints.find((e) => e.endpoint_id === state.selected);
const errorText = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

// Retries are seconds apart, so the log shows seconds.
const MOMENT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const formatMoment = (iso: string | null) => (iso ? MOMENT.format(new Date(iso)) : '—');

async function loadEndpoints(): Promise<void> {
  try {
    state.endpoints = (await api<{ endpoints: WebhookEndpoint[] }>('/demo/api/webhooks/endpoints')).endpoints;
    state.loadError = '';
    if (!selectedEndpoint()) choose(state.endpoints[0]?.endpoint_id);
  } catch (error) {
    state.loadError = errorText(error);
  } finally {
    state.loading = false;
    update();
  }
}

function choose(endpointId: string | undefined): void {
  if (state.selected === endpointId) return;
  state.selected = endpointId;
  state.deliveries = [];
  state.deliveriesError = '';
}

function select(endpointId: string): void {
  choose(endpointId);
  void refresh();
}

/** The selected endpoint's delivery log and the receiver's receipts, as they stand now. */
async function refresh(): Promise<void> {
  const endpointId = state.selected;
  state.refreshing = true;
  update();
  const [deliveries, receipts] = await Promise.allSettled([
    endpointId ? api<{ deliveries: WebhookDelivery[] }>(`/demo/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries`) : undefined,
    api<{ receipts: WebhookReceipt[] }>('/demo/api/webhooks/receiver'),
  ]);
  state.refreshing = false;
  // A slower answer for an endpoint no longer selected is dropped.
  if (endpointId === state.selected) {
    state.deliveries = deliveries.status === 'fulfilled' ? (deliveries.value?.deliveries ?? []) : state.deliveries;
    state.deliveriesError = deliveries.status === 'rejected' ? errorText(deliveries.reason) : '';
  }
  if (receipts.status === 'fulfilled') state.receipts = receipts.value.receipts;
  state.refreshedAt = new Date();
  update();
}

// Only while someone can see the page: a hidden tab asks the server nothing.
setInterval(() => {
  if (state.autoRefresh && !state.refreshing && document.visibilityState === 'visible') void refresh();
}, AUTO_REFRESH_MS);
document.addEventListener('visibilitychange', () => {
  if (state.autoRefresh && document.visibilityState === 'visible') void refresh();
});

// ---- endpoints ----

/** The form of the URL; whether the gateway takes it (a public https: address, or the loopback) is the gateway's to say. */
function urlProblem(url: string): string | undefined {
  if (!url) return 'must not be empty';
  if (!URL.canParse(url)) return 'must be an absolute URL, such as https://shop.example/webhooks';
  const { protocol } = new URL(url);
  if (protocol !== 'https:' && protocol !== 'http:') return `must be an https: (or http:) URL, not ${protocol}`;
  return undefined;
}

/** Adds an endpoint and shows its log; resolves with the reason when it is refused. */
async function addEndpoint(url: string): Promise<string | undefined> {
  state.adding = true;
  update();
  try {
    const endpoint = await api<WebhookEndpoint>('/demo/api/webhooks/endpoints', { body: { url } });
    state.endpoints = [...state.endpoints, endpoint];
    state.notice = `Added the endpoint ${endpoint.url}.`;
    select(endpoint.endpoint_id);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const reason = error.fieldErrors.find((e) => e.path === 'url')?.message ?? error.message;
    return `The gateway refused it (${error.status}): ${reason}`;
  } finally {
    state.adding = false;
    update();
  }
}

async function submitEndpoint(event: Event): Promise<void> {
  event.preventDefault();
  if (state.adding) return;
  const url = state.draftUrl.trim();
  state.urlError = urlProblem(url) ?? (await addEndpoint(url));
  if (!state.urlError) state.draftUrl = '';
  update();
  if (state.urlError) document.getElementById('f-url')?.focus();
}

async function addReceiver(): Promise<void> {
  if (state.adding) return;
  state.receiverError = await addEndpoint(RECEIVER_URL);
  update();
  document.getElementById(state.receiverError ? 'receiver-error' : 'deliveries-title')?.focus();
}

function toggleSecret(endpointId: string): void {
  if (!state.revealed.delete(endpointId)) state.revealed.add(endpointId);
  update();
}

async function copySecret(endpoint: WebhookEndpoint): Promise<void> {
  state.notice = (await copyText(endpoint.secret))
    ? `Copied the signing secret of ${endpoint.url}.`
    : 'The browser did not allow copying here: reveal the secret and copy it by hand.';
  update();
}

const removeDialog = () => document.getElementById('remove-dialog') as HTMLDialogElement;

function askRemove(endpoint: WebhookEndpoint): void {
  state.removing = endpoint;
  update();
  removeDialog().showModal();
}

async function confirmRemove(event: Event): Promise<void> {
  event.preventDefault();
  const endpoint = state.removing;
  if (!endpoint) return;
  try {
    await api(`/demo/api/webhooks/endpoints/${encodeURIComponent(endpoint.endpoint_id)}`, { method: 'DELETE' });
    state.notice = `Removed the endpoint ${endpoint.url}.`;
  } catch (error) {
    state.notice = `Could not remove ${endpoint.url}: ${errorText(error)}`;
  }
  removeDialog().close();
  await loadEndpoints();
  void refresh();
  document.getElementById('endpoints-title')?.focus();
}

function secretCell(endpoint: WebhookEndpoint): TemplateResult {
  const shown = state.revealed.has(endpoint.endpoint_id);
  return html`<div class="secret">
    ${shown
      ? html`<code class="wrap" data-secret>${endpoint.secret}</code>`
      : html`<span class="masked" aria-hidden="true">••••••••••••</span><span class="visually-hidden">hidden</span>`}
    <button type="button" class="secondary small" aria-pressed=${shown ? 'true' : 'false'} aria-label="Reveal the signing secret of ${endpoint.url}" @click=${() => toggleSecret(endpoint.endpoint_id)}>
      Reveal
    </button>
    <button type="button" class="secondary small" aria-label="Copy the signing secret of ${endpoint.url}" @click=${() => copySecret(endpoint)}>Copy</button>
  </div>`;
}

function endpointsSection(): TemplateResult {
  return html`<section class="card" aria-labelledby="endpoints-title">
    <h2 id="endpoints-title" tabindex="-1">Endpoints</h2>
    ${state.loadError
      ? html`<p class="error-box" role="alert">${state.loadError}</p>`
      : state.loading
        ? html`<p>Loading endpoints…</p>`
        : state.endpoints.length
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
                    state.endpoints,
                    (e) => e.endpoint_id,
                    (e) => html`<tr data-endpoint=${e.endpoint_id} class=${e.endpoint_id === state.selected ? 'selected' : ''}>
                      <th scope="row" class="mono wrap" data-url>${e.url}</th>
                      <td>${formatDate(e.created_at)}</td>
                      <td>${secretCell(e)}</td>
                      <td>
                        <div class="buttons tight">
                          <button type="button" class="secondary small" aria-pressed=${e.endpoint_id === state.selected ? 'true' : 'false'} aria-label="Deliveries to ${e.url}" @click=${() => select(e.endpoint_id)}>
                            Deliveries
                          </button>
                          <button type="button" class="secondary small" aria-label="Remove ${e.url}" @click=${() => askRemove(e)}>Remove</button>
                        </div>
                      </td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : html`<p>No endpoints yet: add one here, or the demo receiver below.</p>`}
    <form class="add-endpoint" novalidate @submit=${submitEndpoint}>
      ${input({
        path: 'url',
        label: 'Endpoint URL',
        type: 'url',
        required: true,
        value: state.draftUrl,
        error: state.urlError,
        hint: 'https: to a public address (http: on localhost only, for receivers on this machine). Every event is POSTed there, signed with the secret it gets.',
        onInput: (v) => ((state.draftUrl = v), update()),
      })}
      <button type="submit" class="primary">${state.adding ? 'Adding…' : 'Add endpoint'}</button>
    </form>
  </section>`;
}

function removeDialogTemplate(): TemplateResult {
  const endpoint = state.removing;
  return html`<dialog id="remove-dialog" aria-labelledby="remove-title" @close=${() => ((state.removing = undefined), update())}>
    ${endpoint
      ? html`<form method="dialog" @submit=${confirmRemove}>
          <h2 id="remove-title">Remove this endpoint?</h2>
          <p class="mono wrap">${endpoint.url}</p>
          <p>The gateway sends it no new events, and this page no longer lists it.</p>
          <div class="buttons">
            <button type="submit" class="primary">Remove</button>
            <button type="button" class="secondary" @click=${() => removeDialog().close()}>Cancel</button>
          </div>
        </form>`
      : nothing}
  </dialog>`;
}

// ---- the delivery log ----

async function redeliver(delivery: WebhookDelivery): Promise<void> {
  if (state.redelivering.has(delivery.delivery_id)) return;
  state.redelivering.add(delivery.delivery_id);
  update();
  try {
    const queued = await api<WebhookDelivery>(`/demo/api/webhooks/deliveries/${delivery.delivery_id}/redeliver`, { method: 'POST' });
    state.deliveries = state.deliveries.map((d) => (d.delivery_id === queued.delivery_id ? queued : d));
    state.notice = `Redelivery of ${delivery.event_id} queued: the gateway sends it within a few seconds.`;
  } catch (error) {
    state.notice = `Could not redeliver ${delivery.event_id}: ${errorText(error)}`;
  } finally {
    state.redelivering.delete(delivery.delivery_id);
    update();
  }
}

/** The last attempt, as the gateway tells it: "delivered", "HTTP <status>" or "unreachable" ("—" before the first). */
const lastResponse = (d: WebhookDelivery) => d.last_error ?? (d.last_status_code === null ? '—' : 'delivered');

function deliveriesSection(): TemplateResult | typeof nothing {
  const endpoint = selectedEndpoint();
  if (!endpoint) return nothing;
  return html`<section class="card" aria-labelledby="deliveries-title">
    <h2 id="deliveries-title" tabindex="-1">Deliveries to <span class="mono wrap">${endpoint.url}</span></h2>
    <div class="buttons log-tools">
      <button type="button" class="secondary" @click=${refresh}>Refresh</button>
      <div class="check">
        <input id="auto-refresh" type="checkbox" .checked=${state.autoRefresh} @change=${(e: Event) => ((state.autoRefresh = (e.target as HTMLInputElement).checked), update())} />
        <label for="auto-refresh">Refresh every ${AUTO_REFRESH_MS / 1000} s while this page is visible</label>
      </div>
      <span class="muted">${state.refreshedAt ? `Updated ${MOMENT.format(state.refreshedAt)}` : ''}</span>
    </div>
    ${state.deliveriesError ? html`<p class="error-box" role="alert">${state.deliveriesError}</p>` : nothing}
    ${state.deliveries.length
      ? html`<div class="table-wrap">
          <table class="deliveries">
            <caption class="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event type</th>
                <th scope="col">Event id</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Attempts</th>
                <th scope="col">Last response</th>
                <th scope="col">Next retry</th>
                <th scope="col">Delivered</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${repeat(
                state.deliveries,
                (d) => d.delivery_id,
                (d) => html`<tr data-delivery=${d.delivery_id} data-event-id=${d.event_id} data-type=${d.type}>
                  <th scope="row"><code>${d.type}</code></th>
                  <td class="mono wrap">${d.event_id}</td>
                  <td><span class="pill ${d.status}" data-delivery-status>${d.status}</span></td>
                  <td class="num" data-attempts>${d.attempts}</td>
                  <td class="wrap">${lastResponse(d)}</td>
                  <td>${d.status === 'pending' ? formatMoment(d.next_attempt_at) : '—'}</td>
                  <td>${formatMoment(d.delivered_at)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary small"
                      aria-label="Redeliver ${d.type} ${d.event_id}"
                      @click=${() => redeliver(d)}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
      : html`<p>No deliveries yet. Events are sent here from now on: <a href="/">build a link</a> and pay it with the test wallet.</p>`}
  </section>`;
}

// ---- the demo receiver ----

function receiverSection(): TemplateResult {
  const added = state.endpoints.some((e) => e.url === RECEIVER_URL);
  return html`<section class="card" aria-labelledby="receiver-title">
    <h2 id="receiver-title">Demo receiver</h2>
    <p>
      This demo's server accepts deliveries at <code class="wrap">${RECEIVER_URL}</code>, checks each with <code>verifyWebhook</code> against
      your endpoints' secrets (answering 400 when none verifies), and keeps the last 50 here.
    </p>
    ${!RECEIVER_ALLOWED
      ? html`<p class="note" data-receiver-note>
          The gateway takes <code>http:</code> endpoints on <code>localhost</code> only, and this page is at <code>${location.origin}</code>: open it
          at <code>http://localhost:${location.port || '80'}/webhooks</code> to add the demo receiver.
        </p>`
      : added
        ? html`<p class="muted">The demo receiver is one of your endpoints.</p>`
        : html`<p><button type="button" class="primary" @click=${addReceiver}>Add the demo receiver as an endpoint</button></p>`}
    ${state.receiverError ? html`<p class="error-box" id="receiver-error" tabindex="-1" role="alert">${state.receiverError}</p>` : nothing}
    ${state.receipts.length
      ? html`<div class="table-wrap">
          <table class="receipts">
            <caption class="visually-hidden">Deliveries the demo receiver got, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Event type</th>
                <th scope="col">Event id</th>
                <th scope="col">Order</th>
                <th scope="col">Signature</th>
              </tr>
            </thead>
            <tbody>
              ${state.receipts.map(
                (r) => html`<tr data-receipt data-event-id=${r.event_id ?? ''} data-verified=${String(r.verified)}>
                  <td>${formatMoment(r.received_at)}</td>
                  <td><code>${r.type ?? '—'}</code></td>
                  <td class="mono wrap">${r.event_id ?? '—'}</td>
                  <td class="mono wrap">${r.merchant_order_id ?? '—'}</td>
                  <td>
                    ${r.verified
                      ? html`<span class="pill delivered">verified</span>`
                      : html`<span class="pill failed">not verified</span> <span class="wrap">${r.reason}</span>`}
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
      : html`<p>Nothing received yet.</p>`}
  </section>`;
}

function update(): void {
  render(
    html`<p class="status" role="status">${state.notice || nothing}</p>
      ${endpointsSection()} ${deliveriesSection()} ${receiverSection()} ${removeDialogTemplate()}`,
    host,
  );
}

void showSession();
await loadEndpoints();
await refresh();
