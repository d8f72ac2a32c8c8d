// The webhooks page's view of the demo's own receiver, which verifies each delivery as a merchant's server would:
// where it listens, the button that adds it as an endpoint (where the gateway takes its URL), and what it got.
// Template functions only: the page (demo/scripts/webhooks.ts) holds the state and does the work.
import { html, type TemplateResult } from 'lit';
import { isWebUrl, type WebhookEndpoint } from '../../../src/contract/index.js';
import type { WebhookReceipt } from '../../routes/receiver.js';
import type { SubmitController } from '../lib/submit-controller.js';
import { formatMoment } from './delivery-views.js';

/** DEMO_RECEIVER_PATH of src/sandbox/services/webhooks/targets.ts (not imported: that module is the server's). */
export const RECEIVER_URL = new URL('/demo/webhook-receiver', location.origin).href;
/** The gateway takes http: endpoints on the loopback host only, so the receiver is offered only where it may be added. */
const RECEIVER_ALLOWED = isWebUrl(RECEIVER_URL);

export interface ReceiverProps {
  endpoints: readonly WebhookEndpoint[];
  receipts: readonly WebhookReceipt[];
  /** The add button's submit and its problem. */
  addReceiver: SubmitController;
  add: () => void;
}

export function receiverSection(p: ReceiverProps): TemplateResult {
  const added = p.endpoints.some((e) => e.url === RECEIVER_URL);
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
        : html`<p><button type="button" class="primary" @click=${p.add}>Add the demo receiver as an endpoint</button></p>`}
    ${p.addReceiver.problemBox()}
    ${p.receipts.length
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
              ${p.receipts.map(
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
