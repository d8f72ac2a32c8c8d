// The merchant portal's webhooks page: the merchant's endpoints with their signing secrets and a test event for each
// (an endpoint the gateway's URL rules refuse at delivery marked so, with the rule and why),
// an endpoint's delivery log (each delivery's last HTTP status; opened, its payload and every attempt with the
// receiver's answer) with manual redelivery, and the demo's own receiver, which verifies each delivery as a merchant's
// server would.
// The demo's server calls the gateway; this page never holds credentials.
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../src/contract/index.js';
import type { WebhookReceipt } from '../routes/receiver.js';
import { api, ApiError } from './lib/api.js';
import { LightElement } from './lib/light-element.js';
import { PollController } from './lib/poll-controller.js';
import { showSession } from './lib/session.js';
import { SubmitController } from './lib/submit-controller.js';
import { copyText } from './lib/ui.js';
import { AUTO_REFRESH_MS, deliveriesSection } from './webhooks/delivery-log-views.js';
import { defineDeliveryDetail, queuedAgain } from './webhooks/delivery-views.js';
import { endpointsSection, removeDialog } from './webhooks/endpoint-views.js';
import { RECEIVER_URL, receiverSection } from './webhooks/receiver-views.js';

const errorText = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/** The form of the URL; whether the gateway takes it (a public https: address, or the loopback) is the gateway's to say. */
function urlProblem(url: string): string | undefined {
  if (!url) return 'must not be empty';
  if (!URL.canParse(url)) return 'must be an absolute URL, such as https://shop.example/webhooks';
  const { protocol } = new URL(url);
  if (protocol !== 'https:' && protocol !== 'http:') return `must be an https: (or http:) URL, not ${protocol}`;
  return undefined;
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

  protected override render(): TemplateResult {
    const endpoints = endpointsSection({
      endpoints: this.endpoints,
      loading: this.loading,
      loadError: this.loadError,
      selected: this.selected,
      revealed: this.revealed,
      testing: this.testing,
      add: this.#add,
      draftUrl: this.draftUrl,
      retryLoad: () => void this.#retryLoad(),
      select: (endpointId) => this.#select(endpointId),
      toggleSecret: (endpointId) => this.#toggleSecret(endpointId),
      copySecret: (e) => void this.#copySecret(e),
      sendTest: (e) => void this.#sendTest(e),
      askRemove: (e) => void this.#askRemove(e),
      draftInput: (url) => ((this.draftUrl = url), this.#add.changed('url')),
      submit: (event) => void this.#submitEndpoint(event),
    });
    const endpoint = this.#selectedEndpoint();
    const deliveries = endpoint
      ? deliveriesSection({
          endpoint,
          deliveries: this.deliveries,
          deliveriesError: this.deliveriesError,
          refreshedAt: this.refreshedAt,
          autoRefresh: this.#poll.enabled,
          opened: this.opened,
          refresh: () => void this.refresh(),
          setAutoRefresh: (on) => ((this.#poll.enabled = on), this.requestUpdate()),
          toggleOpened: (deliveryId) => this.#toggleOpened(deliveryId),
          redeliver: (d) => void this.#redeliver(d),
        })
      : nothing;
    const receiver = receiverSection({ endpoints: this.endpoints, receipts: this.receipts, addReceiver: this.#addReceiver, add: () => void this.#addTheReceiver() });
    const dialog = removeDialog(
      this.removing,
      (event) => void this.#confirmRemove(event),
      () => (this.removing = undefined),
      () => this.#removeDialog().close(),
    );
    return html`<p class="status" role="status">${this.notice || nothing}</p>
      ${endpoints} ${deliveries} ${receiver} ${dialog}`;
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
