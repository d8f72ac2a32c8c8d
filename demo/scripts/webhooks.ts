// The merchant portal's webhooks page: the merchant's endpoints with their signing secrets and a test event for each
// (an endpoint the gateway's URL rules refuse at delivery marked so, with the rule and why),
// an endpoint's delivery log (each delivery's last HTTP status; opened, its payload and every attempt with the
// receiver's answer) with manual redelivery, and the demo's own receiver, which verifies each delivery as a merchant's
// server would.
// The demo's server calls the gateway; this page never holds credentials.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { isWebUrl, type WebhookDelivery, type WebhookEndpoint, type WebhookUrlRule } from '../../src/contract/index.js';
import type { WebhookReceipt } from '../routes/receiver.js';
import { api, ApiError } from './lib/api.js';
import { LightElement } from './lib/light-element.js';
import { PollController } from './lib/poll-controller.js';
import { showSession } from './lib/session.js';
import { SubmitController } from './lib/submit-controller.js';
import { copyText, formatDate, input } from './lib/ui.js';
import { DELIVERY_STATE_HEADINGS, defineDeliveryDetail, deliveryState, detailRow, detailsButton, formatMoment, nextAttempt, queuedAgain } from './webhooks/delivery-views.js';

/** DEMO_RECEIVER_PATH of src/sandbox/services/webhooks/targets.ts (not imported: that module is the server's). */
const RECEIVER_URL = new URL('/demo/webhook-receiver', location.origin).href;
/** The gateway takes http: endpoints on the loopback host only, so the receiver is offered only where it may be added. */
const RECEIVER_ALLOWED = isWebUrl(RECEIVER_URL);
const AUTO_REFRESH_MS = 2000;

const errorText = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/** The form of the URL; whether the gateway takes it (a public https: address, or the loopback) is the gateway's to say. */
function urlProblem(url: string): string | undefined {
  if (!url) return 'must not be empty';
  if (!URL.canParse(url)) return 'must be an absolute URL, such as https://shop.example/webhooks';
  const { protocol } = new URL(url);
  if (protocol !== 'https:' && protocol !== 'http:') return `must be an https: (or http:) URL, not ${protocol}`;
  return undefined;
}

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

/**
 * @summary The webhooks page: endpoints, an endpoint's delivery log, and the demo receiver.
 */
export class WebhooksPage extends LightElement {
  @state() private endpoints: WebhookEndpoint[] = [];
  @state() private loading = true;
  @state() private loadError = '';
  /** The endpoint whose delivery log is shown. */
  @state() private selected: string | undefined;
  @state() private revealed = new Set<string>();
  @state() private draftUrl = '';
  /** The endpoint the removal dialog asks about. */
  @state() private removing: WebhookEndpoint | undefined;
  @state() private deliveries: WebhookDelivery[] = [];
  @state() private deliveriesError = '';
  @state() private refreshedAt: Date | undefined;
  @state() private redelivering = new Set<number>();
  /** The deliveries opened to show their payload and attempts. */
  @state() private opened = new Set<number>();
  /** The endpoints a test event is being queued for. */
  @state() private testing = new Set<string>();
  @state() private receipts: WebhookReceipt[] = [];
  /** The last thing done, for the live region. */
  @state() private notice = '';
  readonly #add = new SubmitController(this, { problemId: 'endpoint-problem', subject: 'the endpoint' });
  readonly #addReceiver = new SubmitController(this, { problemId: 'receiver-error', subject: 'the demo receiver' });
  readonly #poll = new PollController(this, AUTO_REFRESH_MS, () => this.refresh());

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#loadEndpoints().then(() => this.refresh());
  }

  #selectedEndpoint = () => this.endpoints.find((e) => e.endpoint_id === this.selected);

  async #retryLoad(): Promise<void> {
    this.loading = true;
    this.loadError = '';
    await this.#loadEndpoints();
    await this.refresh();
  }

  async #loadEndpoints(): Promise<void> {
    try {
      this.endpoints = (await api<{ endpoints: WebhookEndpoint[] }>('/demo/api/webhooks/endpoints')).endpoints;
      this.loadError = '';
      if (!this.#selectedEndpoint()) this.#choose(this.endpoints[0]?.endpoint_id);
    } catch (error) {
      this.loadError = errorText(error);
    } finally {
      this.loading = false;
    }
  }

  #choose(endpointId: string | undefined): void {
    if (this.selected === endpointId) return;
    this.selected = endpointId;
    this.deliveries = [];
    this.deliveriesError = '';
    this.opened = new Set();
  }

  #select(endpointId: string): void {
    this.#choose(endpointId);
    void this.refresh();
  }

  /** The selected endpoint's delivery log and the receiver's receipts, as they stand now. */
  async refresh(): Promise<void> {
    const endpointId = this.selected;
    const [deliveries, receipts] = await Promise.allSettled([
      endpointId ? api<{ deliveries: WebhookDelivery[] }>(`/demo/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries`) : undefined,
      api<{ receipts: WebhookReceipt[] }>('/demo/api/webhooks/receiver'),
    ]);
    // A slower answer for an endpoint no longer selected is dropped.
    if (endpointId === this.selected) {
      this.deliveries = deliveries.status === 'fulfilled' ? (deliveries.value?.deliveries ?? []) : this.deliveries;
      this.deliveriesError = deliveries.status === 'rejected' ? errorText(deliveries.reason) : '';
    }
    if (receipts.status === 'fulfilled') this.receipts = receipts.value.receipts;
    this.refreshedAt = new Date();
  }

  // ---- endpoints ----

  /** Adds an endpoint and shows its log; undefined when it was refused (the form shows why). */
  async #addEndpoint(form: SubmitController, url: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = await form.submit(() => api<WebhookEndpoint>('/demo/api/webhooks/endpoints', { body: { url } }));
    if (endpoint) {
      // What was refused before no longer stands, whichever form it came from.
      this.#add.reset();
      this.#addReceiver.reset();
      this.endpoints = [...this.endpoints, endpoint];
      this.notice = `Added the endpoint ${endpoint.url}.`;
      this.#select(endpoint.endpoint_id);
    }
    return endpoint;
  }

  async #submitEndpoint(event: Event): Promise<void> {
    event.preventDefault();
    const url = this.draftUrl.trim();
    const problem = urlProblem(url);
    if (problem) return this.#add.refuse([{ path: 'url', message: problem }]);
    if (await this.#addEndpoint(this.#add, url)) this.draftUrl = '';
  }

  async #addTheReceiver(): Promise<void> {
    if (await this.#addEndpoint(this.#addReceiver, RECEIVER_URL)) {
      await this.updateComplete;
      this.querySelector<HTMLElement>('#deliveries-title')?.focus();
    }
  }

  #toggleSecret(endpointId: string): void {
    const revealed = new Set(this.revealed);
    if (!revealed.delete(endpointId)) revealed.add(endpointId);
    this.revealed = revealed;
  }

  async #copySecret(endpoint: WebhookEndpoint): Promise<void> {
    this.notice = (await copyText(endpoint.secret))
      ? `Copied the signing secret of ${endpoint.url}.`
      : 'The browser did not allow copying here: reveal the secret and copy it by hand.';
  }

  /** Queues a test event for the endpoint and shows its log, where the delivery appears with its answer. */
  async #sendTest(endpoint: WebhookEndpoint): Promise<void> {
    if (this.testing.has(endpoint.endpoint_id)) return;
    this.testing = new Set(this.testing).add(endpoint.endpoint_id);
    try {
      const queued = await api<WebhookDelivery>(`/demo/api/webhooks/endpoints/${encodeURIComponent(endpoint.endpoint_id)}/test`, { method: 'POST' });
      this.notice = `Test event ${queued.event_id} (${queued.type}) queued for ${endpoint.url}: the gateway sends it within a few seconds.`;
      if (this.selected !== endpoint.endpoint_id) this.#choose(endpoint.endpoint_id);
      this.opened = new Set(this.opened).add(queued.delivery_id);
      await this.refresh();
    } catch (error) {
      this.notice = `Could not send a test event to ${endpoint.url}: ${errorText(error)}`;
    } finally {
      const testing = new Set(this.testing);
      testing.delete(endpoint.endpoint_id);
      this.testing = testing;
    }
  }

  #toggleOpened(deliveryId: number): void {
    const opened = new Set(this.opened);
    if (!opened.delete(deliveryId)) opened.add(deliveryId);
    this.opened = opened;
  }

  #removeDialog = () => this.querySelector<HTMLDialogElement>('#remove-dialog')!;

  async #askRemove(endpoint: WebhookEndpoint): Promise<void> {
    this.removing = endpoint;
    await this.updateComplete;
    this.#removeDialog().showModal();
  }

  async #confirmRemove(event: Event): Promise<void> {
    event.preventDefault();
    const endpoint = this.removing;
    if (!endpoint) return;
    try {
      await api(`/demo/api/webhooks/endpoints/${encodeURIComponent(endpoint.endpoint_id)}`, { method: 'DELETE' });
      this.notice = `Removed the endpoint ${endpoint.url}.`;
    } catch (error) {
      this.notice = `Could not remove ${endpoint.url}: ${errorText(error)}`;
    }
    this.#removeDialog().close();
    await this.#loadEndpoints();
    void this.refresh();
    await this.updateComplete;
    this.querySelector<HTMLElement>('#endpoints-title')?.focus();
  }

  #secretCell(endpoint: WebhookEndpoint): TemplateResult {
    const shown = this.revealed.has(endpoint.endpoint_id);
    return html`<div class="secret">
      ${shown
        ? html`<code class="wrap" data-secret>${endpoint.secret}</code>`
        : html`<span class="masked" aria-hidden="true">••••••••••••</span><span class="visually-hidden">hidden</span>`}
      <button type="button" class="secondary small" aria-pressed=${shown ? 'true' : 'false'} aria-label="Reveal the signing secret of ${endpoint.url}" @click=${() => this.#toggleSecret(endpoint.endpoint_id)}>
        Reveal
      </button>
      <button type="button" class="secondary small" aria-label="Copy the signing secret of ${endpoint.url}" @click=${() => this.#copySecret(endpoint)}>Copy</button>
    </div>`;
  }

  #endpointsSection(): TemplateResult {
    return html`<section class="card" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title" tabindex="-1">Endpoints</h2>
      ${this.loadError
        ? html`<p class="error-box" role="alert">
            ${this.loadError} <button type="button" class="secondary small" @click=${() => this.#retryLoad()}>Retry</button>
          </p>`
        : this.loading
          ? html`<p>Loading endpoints…</p>`
          : this.endpoints.length
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
                      this.endpoints,
                      (e) => e.endpoint_id,
                      (e) => html`<tr data-endpoint=${e.endpoint_id} class=${e.endpoint_id === this.selected ? 'selected' : ''}>
                        <th scope="row" class="wrap"><span class="mono" data-url>${e.url}</span>${refusedNote(e)}</th>
                        <td>${formatDate(e.created_at)}</td>
                        <td>${this.#secretCell(e)}</td>
                        <td>
                          <div class="buttons tight">
                            <button type="button" class="secondary small" aria-pressed=${e.endpoint_id === this.selected ? 'true' : 'false'} aria-label="Deliveries to ${e.url}" @click=${() => this.#select(e.endpoint_id)}>
                              Deliveries
                            </button>
                            <button
                              type="button"
                              class="secondary small"
                              aria-label="Send test event to ${e.url}"
                              ?disabled=${this.testing.has(e.endpoint_id)}
                              @click=${() => this.#sendTest(e)}
                            >
                              Send test event
                            </button>
                            <button type="button" class="secondary small" aria-label="Remove ${e.url}" @click=${() => this.#askRemove(e)}>Remove</button>
                          </div>
                        </td>
                      </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
            : html`<p>No endpoints yet: add one here, or the demo receiver below.</p>`}
      ${this.#add.problemBox()}
      <form class="add-endpoint" novalidate @submit=${this.#submitEndpoint}>
        ${input({
          path: 'url',
          label: 'Endpoint URL',
          type: 'url',
          required: true,
          value: this.draftUrl,
          error: this.#add.error('url'),
          hint: "https: to a public address (http: only for the demo's own receiver, below). Every event is POSTed there, signed with the secret it gets.",
          onInput: (v) => ((this.draftUrl = v), this.#add.changed('url')),
        })}
        <button type="submit" class="primary">${this.#add.pending ? 'Adding…' : 'Add endpoint'}</button>
      </form>
    </section>`;
  }

  #removeDialogTemplate(): TemplateResult {
    const endpoint = this.removing;
    return html`<dialog id="remove-dialog" aria-labelledby="remove-title" @close=${() => (this.removing = undefined)}>
      ${endpoint
        ? html`<form method="dialog" @submit=${this.#confirmRemove}>
            <h2 id="remove-title">Remove this endpoint?</h2>
            <p class="mono wrap">${endpoint.url}</p>
            <p>The gateway sends it no new events, and this page no longer lists it.</p>
            <div class="buttons">
              <button type="submit" class="primary">Remove</button>
              <button type="button" class="secondary" @click=${() => this.#removeDialog().close()}>Cancel</button>
            </div>
          </form>`
        : nothing}
    </dialog>`;
  }

  async #redeliver(delivery: WebhookDelivery): Promise<void> {
    if (this.redelivering.has(delivery.delivery_id)) return;
    this.redelivering = new Set(this.redelivering).add(delivery.delivery_id);
    try {
      const queued = await api<WebhookDelivery>(`/demo/api/webhooks/deliveries/${delivery.delivery_id}/redeliver`, { method: 'POST' });
      this.deliveries = this.deliveries.map((d) => (d.delivery_id === queued.delivery_id ? queued : d));
      this.notice = `Redelivery of ${delivery.event_id} queued: ${queuedAgain(queued)}.`;
    } catch (error) {
      this.notice = `Could not redeliver ${delivery.event_id}: ${errorText(error)}`;
    } finally {
      const redelivering = new Set(this.redelivering);
      redelivering.delete(delivery.delivery_id);
      this.redelivering = redelivering;
    }
  }

  #deliveriesSection(): TemplateResult | typeof nothing {
    const endpoint = this.#selectedEndpoint();
    if (!endpoint) return nothing;
    return html`<section class="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title" tabindex="-1">Deliveries to <span class="mono wrap">${endpoint.url}</span></h2>
      <div class="buttons log-tools">
        <button type="button" class="secondary" @click=${() => this.refresh()}>Refresh</button>
        <div class="check">
          <input id="auto-refresh" type="checkbox" .checked=${this.#poll.enabled} @change=${(e: Event) => ((this.#poll.enabled = (e.target as HTMLInputElement).checked), this.requestUpdate())} />
          <label for="auto-refresh">Refresh every ${AUTO_REFRESH_MS / 1000} s while this page is visible</label>
        </div>
        <span class="muted">${this.refreshedAt ? `Updated ${formatMoment(this.refreshedAt.toISOString())}` : ''}</span>
      </div>
      ${this.deliveriesError
        ? html`<p class="error-box" role="alert">
            ${this.deliveriesError} <button type="button" class="secondary small" @click=${() => this.refresh()}>Retry</button>
          </p>`
        : nothing}
      ${this.deliveries.length
        ? html`<div class="table-wrap">
            <table class="deliveries">
              <caption class="visually-hidden">Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event type</th>
                  <th scope="col">Event id</th>
                  ${DELIVERY_STATE_HEADINGS}
                  <th scope="col">Next retry</th>
                  <th scope="col">Delivered</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${repeat(
                  this.deliveries,
                  (d) => d.delivery_id,
                  (d) => html`<tr data-delivery=${d.delivery_id} data-event-id=${d.event_id} data-type=${d.type}>
                      <th scope="row"><code>${d.type}</code></th>
                      <td class="mono wrap">${d.event_id}</td>
                      ${deliveryState(d)}
                      <td>${nextAttempt(d)}</td>
                      <td>${formatMoment(d.delivered_at)}</td>
                      <td>
                        <div class="buttons tight">
                          ${detailsButton(d, this.opened.has(d.delivery_id), `Details of ${d.type} ${d.event_id}`, () => this.#toggleOpened(d.delivery_id))}
                          <button type="button" class="secondary small" aria-label="Redeliver ${d.type} ${d.event_id}" @click=${() => this.#redeliver(d)}>
                            Redeliver
                          </button>
                        </div>
                      </td>
                    </tr>
                    ${this.opened.has(d.delivery_id) ? detailRow(d, 8) : nothing}`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p>No deliveries yet. Events are sent here from now on: <a href="/">build a link</a> and pay it with the test wallet.</p>`}
    </section>`;
  }

  #receiverSection(): TemplateResult {
    const added = this.endpoints.some((e) => e.url === RECEIVER_URL);
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
          : html`<p><button type="button" class="primary" @click=${this.#addTheReceiver}>Add the demo receiver as an endpoint</button></p>`}
      ${this.#addReceiver.problemBox()}
      ${this.receipts.length
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
                ${this.receipts.map(
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

  protected override render(): TemplateResult {
    return html`<p class="status" role="status">${this.notice || nothing}</p>
      ${this.#endpointsSection()} ${this.#deliveriesSection()} ${this.#receiverSection()} ${this.#removeDialogTemplate()}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'webhooks-page': WebhooksPage;
  }
}

defineDeliveryDetail();
customElements.define('webhooks-page', WebhooksPage);
void showSession();
