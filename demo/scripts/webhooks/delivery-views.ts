// What the webhooks page and an order's page show of a delivery: its last response (the receiver's HTTP status), and,
// opened, the body it sends and every attempt with the receiver's status, the start of its answer and how long it
// took, or why nothing answered. The receiver's answer is anyone's text: lit-html sets it as text, never as HTML.
// A long payload or answer scrolls, so each takes the focus: a keyboard scrolls it too.
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { WEBHOOK_RESPONSE_BODY_BYTES, type WebhookAttempt, type WebhookDelivery, type WebhookDeliveryDetail } from '../../../src/contract/index.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';

// Retries are seconds apart, so attempts show seconds.
const MOMENT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
export const formatMoment = (iso: string | null) => (iso ? MOMENT.format(new Date(iso)) : '—');

/** What a delivery queued again does next, for the notice that says it was queued. */
export const queuedAgain = (d: Pick<WebhookDelivery, 'next_attempt_at'>) =>
  d.next_attempt_at ? 'the gateway sends it within a few seconds' : 'it goes once the earlier event of its link is delivered';

/** When a pending delivery goes: its time, or, with none, after the one before it (same endpoint and link) is done. */
export const nextAttempt = (d: Pick<WebhookDelivery, 'status' | 'next_attempt_at'>) =>
  d.status !== 'pending' ? '—' : d.next_attempt_at ? formatMoment(d.next_attempt_at) : 'after the earlier event of its link';

const NO_ANSWER: Record<NonNullable<WebhookAttempt['error']>, string> = {
  timeout: 'no answer: timed out',
  connection_failed: 'no answer: could not connect',
  tls: 'no answer: TLS (certificate) error',
  unresolved: 'no answer: the host name does not resolve',
  refused_address: "not sent: the gateway's URL rules refuse the endpoint (its row says why)",
};

/** The last attempt's answer: the receiver's HTTP status ("200"), "no answer", or "—" before the first attempt. */
export const lastResponse = (d: Pick<WebhookDelivery, 'last_status_code' | 'attempts'>) =>
  d.last_status_code !== null ? String(d.last_status_code) : d.attempts ? 'no answer' : '—';

/** The headings of deliveryState's cells, in a delivery table's head. */
export const DELIVERY_STATE_HEADINGS = html`<th scope="col">Status</th>
  <th scope="col" class="num">Attempts</th>
  <th scope="col">Last response</th>`;

/** A delivery's state as both delivery tables (an order's page, the webhooks page) show it; the tests read its data attributes. */
export const deliveryState = (d: Pick<WebhookDelivery, 'status' | 'attempts' | 'last_status_code'>) =>
  html`<td><span class="pill ${d.status}" data-delivery-status>${d.status}</span></td>
    <td class="num" data-attempts>${d.attempts}</td>
    <td data-last-response>${lastResponse(d)}</td>`;

/** The button that opens a delivery's detail row (detailRow) below its row. */
export const detailsButton = (d: Pick<WebhookDelivery, 'delivery_id'>, opened: boolean, label: string, toggle: () => void) =>
  html`<button
    type="button"
    class="secondary small"
    aria-expanded=${opened ? 'true' : 'false'}
    aria-controls=${ifDefined(opened ? `delivery-${d.delivery_id}` : undefined)}
    aria-label=${label}
    @click=${toggle}
  >
    Details
  </button>`;

/** The row under an opened delivery's row: its detail, across the table's `columns`. */
export const detailRow = (d: Pick<WebhookDelivery, 'delivery_id' | 'attempts' | 'status' | 'next_attempt_at'>, columns: number) =>
  html`<tr class="detail-row" id="delivery-${d.delivery_id}">
    <td colspan=${columns}><delivery-detail delivery-id=${d.delivery_id} .seen=${deliveryMoment(d)}></delivery-detail></td>
  </tr>`;

/** The body sent, indented for reading (it is sent, and signed, as one line). */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function attemptRow(a: WebhookAttempt, n: number): TemplateResult {
  return html`<li data-attempt=${n}>
    <p>
      <strong>Attempt ${n}</strong> · ${formatMoment(a.attempted_at)} · ${a.duration_ms} ms ·
      <span data-attempt-status>${a.status_code === null ? NO_ANSWER[a.error ?? 'connection_failed'] : `HTTP ${a.status_code}`}</span>
    </p>
    ${a.status_code === null
      ? nothing
      : a.response_body === null
        ? html`<p class="muted small">The answer had no body.</p>`
        : html`<p class="muted small">Response body${a.response_truncated ? ` (its first ${WEBHOOK_RESPONSE_BODY_BYTES / 1024} KiB)` : ''}:</p>
            <pre data-response-body tabindex="0">${a.response_body}</pre>`}
  </li>`;
}

/**
 * @summary One delivery opened: the payload it sends and each attempt, loaded when shown, and again when the log says
 * it moved.
 */
export class DeliveryDetailView extends LightElement {
  @property({ type: Number, attribute: 'delivery-id' }) deliveryId = 0;
  /** The log's count of attempts and status: when either moves, the detail loads again. */
  @property({ attribute: false }) seen = '';

  readonly #detail = new Task(this, {
    task: ([id]) => api<WebhookDeliveryDetail>(`/demo/api/webhooks/deliveries/${id}`),
    args: () => [this.deliveryId, this.seen] as const,
  });

  reload(): void {
    void this.#detail.run();
  }

  #view(d: WebhookDeliveryDetail): TemplateResult {
    return html`<div class="delivery-detail">
      <h3 class="small-heading">Payload (${d.type}, as signed and sent)</h3>
      <pre data-payload tabindex="0">${pretty(d.payload)}</pre>
      <h3 class="small-heading">Attempts</h3>
      ${d.attempt_log.length
        ? html`<ol class="attempts">
            ${d.attempt_log.map((a, i) => attemptRow(a, i + 1))}
          </ol>`
        : html`<p>Not sent yet${d.status === 'pending' ? `: due ${nextAttempt(d)}` : ''}.</p>`}
    </div>`;
  }

  protected override render(): TemplateResult {
    return this.#detail.render({
      initial: () => html`<p role="status">Loading the delivery…</p>`,
      pending: () => (this.#detail.value ? this.#view(this.#detail.value) : html`<p role="status">Loading the delivery…</p>`),
      complete: (d) => this.#view(d),
      error: (error) => html`<p class="error-box" role="alert">
        ${(error as Error).message} <button type="button" class="secondary small" @click=${() => this.reload()}>Retry</button>
      </p>`,
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'delivery-detail': DeliveryDetailView;
  }
}

/** What `seen` is given: it changes when an attempt is made or the delivery is queued again. */
export const deliveryMoment = (d: Pick<WebhookDelivery, 'attempts' | 'status' | 'next_attempt_at'>) => `${d.attempts}:${d.status}:${d.next_attempt_at ?? ''}`;

/** Registers <delivery-detail> once, whichever page loads it first. */
export function defineDeliveryDetail(): void {
  if (!customElements.get('delivery-detail')) customElements.define('delivery-detail', DeliveryDetailView);
}
