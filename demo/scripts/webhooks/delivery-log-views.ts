// The webhooks page's delivery log of one endpoint: its refresh tools, and each delivery's state with its detail row
// and a manual redelivery. Template functions only: the page (demo/scripts/webhooks.ts) holds the state and does the
// work; the cells both delivery tables show are delivery-views.ts's.
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/contract/index.js';
import { DELIVERY_STATE_HEADINGS, deliveryState, detailRow, detailsButton, formatMoment, nextAttempt } from './delivery-views.js';

/** How often the log refreshes on its own, while the page is visible. */
export const AUTO_REFRESH_MS = 2000;

export interface DeliveryLogProps {
  endpoint: WebhookEndpoint;
  deliveries: readonly WebhookDelivery[];
  deliveriesError: string;
  refreshedAt: Date | undefined;
  /** Whether the log refreshes on its own. */
  autoRefresh: boolean;
  /** The deliveries opened to show their payload and attempts. */
  opened: ReadonlySet<number>;
  refresh: () => void;
  setAutoRefresh: (on: boolean) => void;
  toggleOpened: (deliveryId: number) => void;
  redeliver: (delivery: WebhookDelivery) => void;
}

export function deliveriesSection(p: DeliveryLogProps): TemplateResult {
  return html`<section class="card" aria-labelledby="deliveries-title">
    <h2 id="deliveries-title" tabindex="-1">Deliveries to <span class="mono wrap">${p.endpoint.url}</span></h2>
    <div class="buttons log-tools">
      <button type="button" class="secondary" @click=${p.refresh}>Refresh</button>
      <div class="check">
        <input id="auto-refresh" type="checkbox" .checked=${p.autoRefresh} @change=${(e: Event) => p.setAutoRefresh((e.target as HTMLInputElement).checked)} />
        <label for="auto-refresh">Refresh every ${AUTO_REFRESH_MS / 1000} s while this page is visible</label>
      </div>
      <span class="muted">${p.refreshedAt ? `Updated ${formatMoment(p.refreshedAt.toISOString())}` : ''}</span>
    </div>
    ${p.deliveriesError
      ? html`<p class="error-box" role="alert">
          ${p.deliveriesError} <button type="button" class="secondary small" @click=${p.refresh}>Retry</button>
        </p>`
      : nothing}
    ${p.deliveries.length
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
                p.deliveries,
                (d) => d.delivery_id,
                (d) => html`<tr data-delivery=${d.delivery_id} data-event-id=${d.event_id} data-type=${d.type}>
                    <th scope="row"><code>${d.type}</code></th>
                    <td class="mono wrap">${d.event_id}</td>
                    ${deliveryState(d)}
                    <td>${nextAttempt(d)}</td>
                    <td>${formatMoment(d.delivered_at)}</td>
                    <td>
                      <div class="buttons tight">
                        ${detailsButton(d, p.opened.has(d.delivery_id), `Details of ${d.type} ${d.event_id}`, () => p.toggleOpened(d.delivery_id))}
                        <button type="button" class="secondary small" aria-label="Redeliver ${d.type} ${d.event_id}" @click=${() => p.redeliver(d)}>
                          Redeliver
                        </button>
                      </div>
                    </td>
                  </tr>
                  ${p.opened.has(d.delivery_id) ? detailRow(d, 8) : nothing}`,
              )}
            </tbody>
          </table>
        </div>`
      : html`<p>No deliveries yet. Events are sent here from now on: <a href="/">build a link</a> and pay it with the test wallet.</p>`}
  </section>`;
}
