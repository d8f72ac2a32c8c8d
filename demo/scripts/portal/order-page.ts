// An order's page in the portal: its payment links, each payment with its address, amounts, rate, status and chain
// transactions (hashes), every refund of the order, and the webhook deliveries about it (each with its last HTTP
// status, its payload and attempts, and "Resend"). Money held for the
// merchant (late, superseded or excess payments) is shown first, with the two decisions it waits for: accept it as
// the order's payment, or refund it. Each refund shows what it sends and where, its rate, its history and note, and
// what can be done with it: cancel one nobody claimed yet or whose payout waits (for the daily cap or the payout
// wallet's funds, said in words), make a failed one again, or (the sandbox's shortcut) claim it as the customer with
// the test wallet's address. Beside them, the merchant's payout wallets, which its refunds on a node's network leave.
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import {
  isIn,
  OPEN_PAYMENT_STATUSES,
  type MerchantPayment,
  type PaymentLinkResource,
  type PayoutWallets,
  type RefundResource,
  type WebhookDelivery,
} from '../../../src/contract/index.js';
import type { OrderView } from '../../routes/orders.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';
import { PollController } from '../lib/poll-controller.js';
import { SubmitController } from '../lib/submit-controller.js';
import { formatDate, formatVnd } from '../lib/ui.js';
import { DELIVERY_STATE_HEADINGS, deliveryState, detailRow, detailsButton, queuedAgain } from '../webhooks/delivery-views.js';
import { RefundRequestEvent } from './events.js';
import { canAccept, heldReason, holdings, orderStatus, type Holding } from './money.js';
import { coin, formatRate, paymentPill, rateProvenance, short } from './views.js';

/**
 * @summary One order: payments, transactions, refunds, webhooks, and the decisions about money held for the merchant.
 */
export class OrderPage extends LightElement {
  @property({ attribute: 'order-id' }) orderId = '';
  /** Where "All transactions" goes back to (the list with its filters). */
  @property({ attribute: false }) listPath = '/portal';
  @state() private notice = '';
  /** The held payment whose accept waits for the merchant to confirm it: an accept cannot be undone. */
  @state() private confirmingAccept = '';
  readonly #accept = new SubmitController(this, { problemId: 'accept-problem', subject: 'the accept' });
  /** The link whose cancel waits for the merchant to confirm it: a cancel cannot be undone. */
  @state() private confirmingCancel = '';
  readonly #cancelLink = new SubmitController(this, { problemId: 'cancel-link-problem', subject: 'the cancel' });
  readonly #refundAction = new SubmitController(this, { problemId: 'refund-action-problem', subject: 'the refund' });
  readonly #resend = new SubmitController(this, { problemId: 'resend-problem', subject: 'the resend' });
  /** The deliveries opened to show their payload and attempts. */
  @state() private opened = new Set<number>();

  readonly #order = new Task(this, {
    task: ([orderId]) => api<OrderView>(`/demo/api/orders/${encodeURIComponent(orderId)}`),
    args: () => [this.orderId] as const,
  });

  // While something can still change on its own (a payment confirming, a webhook on its way), the page follows it.
  private readonly follow = new PollController(this, 2000, async () => {
    const order = this.#order.value;
    if (order && isLive(order)) await this.#order.run();
  });

  /** Loads the order again (after a refund), saying what happened. */
  async reload(notice = ''): Promise<void> {
    this.notice = '';
    // Something succeeded: what was refused before, in any of the page's forms, no longer stands.
    for (const form of [this.#accept, this.#cancelLink, this.#refundAction, this.#resend]) form.reset();
    await this.#order.run();
    // Said once the page shows the order as it now is.
    this.notice = notice;
    await this.updateComplete;
    this.querySelector<HTMLElement>(notice ? '#order-notice' : 'h1')?.focus();
  }

  async #askToAccept(holding: Holding): Promise<void> {
    this.confirmingAccept = holding.payment.payment_id;
    await this.updateComplete;
    this.querySelector<HTMLElement>('[data-accept-confirm] button.primary')?.focus();
  }

  async #acceptPayment(holding: Holding): Promise<void> {
    const { payment } = holding;
    this.confirmingAccept = '';
    const accepted = await this.#accept.submit(() => api<PaymentLinkResource>(`/demo/api/payments/${encodeURIComponent(payment.payment_id)}/accept`, { method: 'POST' }));
    if (accepted) await this.reload(`Accepted ${payment.received_crypto} ${payment.asset} as the payment of order ${this.orderId}: the order is ${accepted.status}.`);
  }

  async #askToCancel(link: PaymentLinkResource): Promise<void> {
    this.confirmingCancel = link.payment_link_ref;
    await this.updateComplete;
    this.querySelector<HTMLElement>('[data-cancel-confirm] button.primary')?.focus();
  }

  async #cancel(link: PaymentLinkResource): Promise<void> {
    this.confirmingCancel = '';
    const ref = link.payment_link_ref;
    const cancelled = await this.#cancelLink.submit(() => api<PaymentLinkResource>(`/demo/api/payment-links/${encodeURIComponent(ref)}/cancel`, { method: 'POST' }));
    if (cancelled) await this.reload(`Payment link ${ref} cancelled: it takes no new payment, and money still sent to it is held for you.`);
  }

  #cancelControls(link: PaymentLinkResource): TemplateResult | typeof nothing {
    if (!canCancel(link)) return nothing;
    const ref = link.payment_link_ref;
    return html`${this.#cancelLink.problemBox()}
      ${this.confirmingCancel === ref
        ? html`<div class="confirm" role="group" aria-labelledby="cancel-confirm-${ref}" data-cancel-confirm>
            <p id="cancel-confirm-${ref}">
              Cancel payment link <span class="mono">${ref}</span> of order ${link.merchant_order_id}? The customer can no longer pay it and is sent to your
              failure page; money still sent to its address is held for you to refund. A cancel cannot be undone (a new link for the order can be made).
            </p>
            <div class="buttons">
              <button type="button" class="primary" ?disabled=${this.#cancelLink.pending} @click=${() => this.#cancel(link)}>Cancel the link</button>
              <button type="button" class="secondary" @click=${() => (this.confirmingCancel = '')}>Keep it</button>
            </div>
          </div>`
        : html`<div class="buttons">
            <button type="button" class="secondary" data-cancel-link ?disabled=${this.#cancelLink.pending} @click=${() => this.#askToCancel(link)}>Cancel link…</button>
          </div>`}`;
  }

  #refund(order: OrderView, preset: Partial<{ paymentId: string; amount: number; reason: string }> = {}): void {
    this.dispatchEvent(new RefundRequestEvent({ orderId: order.merchant_order_id, links: order.payment_links, refunds: order.refunds, ...preset }));
  }

  /** Cancel, make again, or claim with the test wallet: through the demo's server, then the order as it now is. */
  async #refundDo(refund: RefundResource, action: 'cancel' | 'retry' | 'claim-with-test-wallet'): Promise<void> {
    const path = `/demo/api/refunds/${encodeURIComponent(refund.refund_id)}/${action}`;
    const done = await this.#refundAction.submit(() => api<RefundResource>(path, { method: 'POST', ...(action === 'cancel' && { body: { reason: 'cancelled in the portal' } }) }));
    if (!done) return;
    const said = {
      cancel: `Refund ${refund.refund_id} cancelled: ${formatVnd(refund.amount)} is refundable again.`,
      retry: `Refund ${refund.refund_id} made again as ${done.refund_id}${done.claim_url ? ', with a new claim link' : ''}.`,
      'claim-with-test-wallet': `Refund ${refund.refund_id} claimed with the test wallet's address ${done.destination ?? ''}: its payout is on its way.`,
    }[action];
    await this.reload(said);
  }

  #heldSection(order: OrderView): TemplateResult | typeof nothing {
    const held = holdings(order.payment_links).filter((h) => h.held > 0);
    if (!held.length) return nothing;
    return html`<section class="card held-funds" aria-labelledby="held-title">
      <h2 id="held-title">Money held for you</h2>
      <p class="muted">It never pays the order by itself. Accept a payment that came in full as the order's payment, or send it back to the address it came from.</p>
      ${this.#accept.problemBox()}
      ${held.map((h) => {
        const { payment } = h;
        const excess = payment.status === 'paid';
        return html`<div class="held-item" data-held-payment=${payment.payment_id}>
          <p><strong data-held-vnd=${h.held}>${formatVnd(h.held)}</strong> on ${coin(payment.asset, payment.network)} · ${paymentPill(payment)}</p>
          <p>${heldReason(h)} Received ${payment.received_crypto} ${payment.asset} for a quote of ${payment.amount_crypto} ${payment.asset}.</p>
          <div class="buttons">
            ${canAccept(h, order.payment_links) && this.confirmingAccept !== payment.payment_id
              ? html`<button type="button" class="primary" ?disabled=${this.#accept.pending} @click=${() => this.#askToAccept(h)}>Accept as the order’s payment</button>`
              : nothing}
            <button
              type="button"
              class=${canAccept(h, order.payment_links) ? 'secondary' : 'primary'}
              @click=${() =>
                this.#refund(order, { paymentId: payment.payment_id, amount: h.held, reason: excess ? 'Overpaid: returning the excess' : 'Paid after the quote expired' })}
            >
              ${excess ? 'Refund the excess' : 'Refund it'}
            </button>
          </div>
          ${this.confirmingAccept === payment.payment_id
            ? html`<div class="confirm" role="group" aria-labelledby="accept-confirm-${payment.payment_id}" data-accept-confirm>
                <p id="accept-confirm-${payment.payment_id}">
                  Accept <strong>${formatVnd(h.held)}</strong> (${payment.received_crypto} ${payment.asset}) as the payment of order ${order.merchant_order_id}? The
                  order becomes paid and the customer is sent on to your success page; an accept cannot be undone (a refund can still return it).
                </p>
                <div class="buttons">
                  <button type="button" class="primary" ?disabled=${this.#accept.pending} @click=${() => this.#acceptPayment(h)}>Accept ${formatVnd(h.held)}</button>
                  <button type="button" class="secondary" @click=${() => (this.confirmingAccept = '')}>Keep it held</button>
                </div>
              </div>`
            : nothing}
        </div>`;
      })}
    </section>`;
  }

  #transactions(payment: MerchantPayment): TemplateResult {
    if (!payment.transactions.length) return html`<span class="muted">none</span>`;
    return html`<ul class="txs">
      ${payment.transactions.map(
        (t) => html`<li data-tx=${t.tx_hash}>
          <code class="mono wrap">${t.tx_hash}</code><br />${t.amount_crypto} ${payment.asset} ·
          ${t.confirmed_at ? `confirmed ${formatDate(t.confirmed_at)}` : `${t.confirmations} of ${payment.confirmations_required} confirmations`}
        </li>`,
      )}
    </ul>`;
  }

  #link(link: PaymentLinkResource): TemplateResult {
    return html`<section class="card" aria-labelledby="link-${link.payment_link_ref}" data-link=${link.payment_link_ref}>
      <h3 id="link-${link.payment_link_ref}">Payment link <span class="mono">${link.payment_link_ref}</span> <span class="pill ${link.status}" data-link-status>${link.status}</span></h3>
      <p class="muted">
        Created ${formatDate(link.created_at)} · expires ${formatDate(link.expires_at)}${link.paid_at ? ` · paid ${formatDate(link.paid_at)}` : ''}${link.superseded_at
          ? ` · replaced by a newer link ${formatDate(link.superseded_at)}`
          : ''}
      </p>
      ${this.#cancelControls(link)}
      ${link.payments.length
        ? html`<div class="table-wrap">
            <table class="payments">
              <caption class="visually-hidden">Payments of ${link.payment_link_ref}, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Payment</th>
                  <th scope="col">Coin and address</th>
                  <th scope="col" class="num">Asked</th>
                  <th scope="col" class="num">Received</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">Held</th>
                  <th scope="col">Transactions</th>
                </tr>
              </thead>
              <tbody>
                ${link.payments.map(
                  (p) => html`<tr data-payment=${p.payment_id}>
                    <th scope="row" class="mono">${p.payment_id}<br /><span class="muted">${formatDate(p.created_at)}</span></th>
                    <td>${coin(p.asset, p.network)}<br /><code class="mono wrap" title=${p.address}>${short(p.address)}</code></td>
                    <td class="num">${p.amount_crypto} ${p.asset}<br /><span class="muted">${formatVnd(p.amount_vnd)}</span></td>
                    <td class="num" data-received>${p.received_crypto} ${p.asset}</td>
                    <td>${formatRate(p.rate, p.asset)}${rateProvenance(p)}</td>
                    <td>${paymentPill(p)}</td>
                    <td class="num">${p.held_vnd ? formatVnd(p.held_vnd) : '—'}</td>
                    <td>${this.#transactions(p)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p>No payment opened yet: the customer has not chosen a coin.</p>`}
    </section>`;
  }

  #refunds(order: OrderView): TemplateResult {
    const refunds = order.refunds;
    return html`<section class="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title" tabindex="-1">Refunds of order ${order.merchant_order_id}</h2>
      <p>Left to refund (<code>amountToRefund</code>): <strong data-amount-to-refund=${order.amountToRefund}>${formatVnd(order.amountToRefund)}</strong></p>
      ${payoutWallets(order.payout_wallets)}
      ${this.#refundAction.problemBox()}
      ${refunds.length
        ? html`<div class="table-wrap">
            <table class="refunds">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Refund id</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col">Coins and rate</th>
                  <th scope="col">Status</th>
                  <th scope="col">Type</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Note</th>
                  <th scope="col">To</th>
                  <th scope="col">History</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${refunds.map((r) => this.#refundRow(r))}
              </tbody>
            </table>
          </div>`
        : html`<p>No refunds yet.</p>`}
    </section>`;
  }

  #refundRow(r: RefundResource): TemplateResult {
    const waiting = r.refund_status === 'PENDING' && !r.destination;
    const payout = r.payout_waiting;
    return html`<tr data-refund=${r.refund_id}>
      <td>${formatDate(r.refund_date)}</td>
      <td class="mono">${r.refund_id}${r.retry_of ? html`<br /><span class="muted small">again for ${r.retry_of}</span>` : nothing}</td>
      <td class="num">${formatVnd(r.amount)}</td>
      <td data-refund-coins>
        <strong>${r.amount_crypto} ${r.asset}</strong> on ${coin(r.asset, r.network)}<br />
        <span class="muted small">at this payment's rate: ${r.payment_received_crypto} ${r.asset} for ${formatVnd(r.payment_value_vnd)}</span>
      </td>
      <td><span class="pill ${r.refund_status.toLowerCase()}" data-refund-status>${r.refund_status}</span>${r.failure_reason ? html`<br /><span class="small" data-refund-failure>${r.failure_reason}</span>` : nothing}${payout
          ? html`<br /><span class="small" data-refund-waiting>Waiting to be sent: ${payout.detail}${payout.until ? html` (from ${formatDate(payout.until)})` : nothing}</span>`
          : nothing}</td>
      <td>${r.refund_type}</td>
      <td>${r.refund_reason}</td>
      <td data-refund-note>${r.description}</td>
      <td data-refund-to>
        ${r.destination
          ? html`<span class="mono wrap">${r.destination}</span><br /><span class="muted small">${r.send_to === 'payer' ? 'the address that paid' : "the customer's claim"}</span>`
          : r.claim_url
            ? html`<a href=${r.claim_url} target="_blank" rel="noreferrer" data-claim-url>claim link</a>${waiting && r.claim_expires_at ? html`<br /><span class="muted small">open until ${formatDate(r.claim_expires_at)}</span>` : nothing}`
            : '—'}
        ${r.psp_refund_id ? html`<br /><span class="mono small" data-refund-tx title=${r.psp_refund_id}>tx ${short(r.psp_refund_id)}</span>` : nothing}
      </td>
      <td>
        <ol class="history small" data-refund-history>
          ${r.history.map((h) => html`<li><span>${h.event}</span> ${formatDate(h.at)}${h.event === 'failed' && h.detail ? html`: ${h.detail}` : nothing}</li>`)}
        </ol>
      </td>
      <td class="actions">
        ${waiting
          ? html`<button type="button" class="secondary" data-refund-claim ?disabled=${this.#refundAction.pending} @click=${() => this.#refundDo(r, 'claim-with-test-wallet')}>
                Claim with the test wallet
              </button>
              <button type="button" class="secondary" data-refund-cancel ?disabled=${this.#refundAction.pending} @click=${() => this.#refundDo(r, 'cancel')}>Cancel</button>`
          : payout
            ? html`<button type="button" class="secondary" data-refund-cancel ?disabled=${this.#refundAction.pending} @click=${() => this.#refundDo(r, 'cancel')}>Cancel</button>`
          : r.refund_status === 'FAILED'
            ? html`<button type="button" class="secondary" data-refund-retry ?disabled=${this.#refundAction.pending} @click=${() => this.#refundDo(r, 'retry')}>Retry</button>`
            : nothing}
      </td>
    </tr>`;
  }

  /** Sends a delivery again now (a new attempt of the same event, same id): through the demo's server. */
  async #resendDelivery(d: WebhookDelivery): Promise<void> {
    const queued = await this.#resend.submit(() => api<WebhookDelivery>(`/demo/api/webhooks/deliveries/${d.delivery_id}/redeliver`, { method: 'POST' }));
    if (queued) await this.reload(`${d.type} (${d.event_id}) queued again: ${queuedAgain(queued)}.`);
  }

  #toggleOpened(deliveryId: number): void {
    const opened = new Set(this.opened);
    if (!opened.delete(deliveryId)) opened.add(deliveryId);
    this.opened = opened;
  }

  #deliveries(order: OrderView): TemplateResult {
    return html`<section class="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      ${this.#resend.problemBox()}
      ${order.deliveries.length
        ? html`<div class="table-wrap">
            <table class="deliveries">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Endpoint</th>
                  ${DELIVERY_STATE_HEADINGS}
                  <th scope="col">Delivered</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${order.deliveries.map((d) => {
                  const opened = this.opened.has(d.delivery_id);
                  return html`<tr data-delivery=${d.delivery_id} data-event-id=${d.event_id} data-type=${d.type}>
                      <th scope="row"><code>${d.type}</code><br /><span class="mono muted">${d.event_id}</span></th>
                      <td class="mono wrap">${d.endpoint_url}</td>
                      ${deliveryState(d)}
                      <td>${formatDate(d.delivered_at)}</td>
                      <td>
                        <div class="buttons tight">
                          ${detailsButton(d, opened, `Details of ${d.type} to ${d.endpoint_url}`, () => this.#toggleOpened(d.delivery_id))}
                          <button
                            type="button"
                            class="secondary small"
                            aria-label="Resend ${d.type} to ${d.endpoint_url}"
                            ?disabled=${this.#resend.pending}
                            @click=${() => this.#resendDelivery(d)}
                          >
                            Resend
                          </button>
                        </div>
                      </td>
                    </tr>
                    ${opened ? detailRow(d, 7) : nothing}`;
                })}
              </tbody>
            </table>
          </div>`
        : html`<p>No deliveries: <a href="/webhooks">add a webhook endpoint</a> to be told of every change.</p>`}
    </section>`;
  }

  #view(order: OrderView): TemplateResult {
    const latest = order.payment_links[0];
    const customer = latest?.customer;
    return html`<h1 tabindex="-1">Order <span class="mono">${order.merchant_order_id}</span></h1>
      <p class="status" id="order-notice" tabindex="-1" role="status">${this.notice}</p>
      <dl class="summary">
        <dt>Status</dt>
        <dd><span class="pill ${latest?.status}" data-order-status>${latest ? orderStatus(latest).replace('_', ' ') : '—'}</span></dd>
        <dt>Amount</dt>
        <dd>${latest ? formatVnd(latest.amount) : '—'}</dd>
        <dt>Customer</dt>
        <dd>${customer ? [customer.name, customer.email, customer.phone].filter(Boolean).join(' · ') : '—'}</dd>
        <dt>Left to refund</dt>
        <dd data-order-left=${order.amountToRefund}>${formatVnd(order.amountToRefund)}</dd>
      </dl>
      <div class="buttons">
        <button type="button" class="primary" ?disabled=${order.amountToRefund === 0} @click=${() => this.#refund(order)}>Refund…</button>
      </div>
      ${this.#heldSection(order)}
      <h2>Payment links and payments</h2>
      ${order.payment_links.map((link) => this.#link(link))} ${this.#refunds(order)} ${this.#deliveries(order)}`;
  }

  protected override render(): TemplateResult {
    const back = html`<p><a href=${this.listPath}>← All transactions</a></p>`;
    return html`${back}
    ${this.#order.render({
      initial: () => html`<p role="status">Loading the order…</p>`,
      pending: () => (this.#order.value ? this.#view(this.#order.value) : html`<p role="status">Loading the order…</p>`),
      complete: (order) => this.#view(order),
      error: (error) => html`<h1>Order <span class="mono">${this.orderId}</span></h1>
        <p class="error-box" role="alert">
          ${(error as Error).message} <button type="button" class="secondary small" @click=${() => this.#order.run()}>Retry</button>
        </p>`,
    })}`;
  }
}

/** Where the merchant's refunds on a node's network are paid from, what each wallet holds, and the daily cap. */
function payoutWallets({ wallets, daily_cap_vnd, sent_last_24h_vnd }: PayoutWallets): TemplateResult | typeof nothing {
  if (!wallets.length) return nothing;
  return html`<div class="small" data-payout-wallets>
    <p>
      Refunds on a node's network are paid from your own payout wallet. Daily cap:
      ${daily_cap_vnd === 0 ? 'none sent until the operator sets one' : html`${formatVnd(sent_last_24h_vnd)} sent of ${formatVnd(daily_cap_vnd)} in the last 24 h`}.
    </p>
    <ul>
      ${wallets.map(
        (w) =>
          html`<li data-payout-wallet=${w.network}>
            ${w.network}: <span class="mono wrap">${w.address}</span> <span class="muted">(${w.derivation_path})</span>, holds
            ${w.balances.map((b, i) => html`${i ? ', ' : ''}${b.balance ?? '?'} ${b.asset}`)}
          </li>`,
      )}
    </ul>
  </div>`;
}

/** Whether the order can change without the merchant: a payment still open or confirming, a delivery still pending. */
function isLive(order: OrderView): boolean {
  return (
    order.deliveries.some((d) => d.status === 'pending') ||
    order.refunds.some((r) => r.refund_status === 'PENDING' && r.destination) ||
    order.payment_links.some((l) => l.payments.some((p) => isIn(OPEN_PAYMENT_STATUSES, p.status) || p.transactions.some((t) => !t.confirmed_at)))
  );
}

/**
 * Whether the portal offers to cancel the link: it is active and no payment of it has received money (money already
 * held stays held). The gateway decides (a 409 says why); this only spares the merchant a button that cannot work.
 */
function canCancel(link: PaymentLinkResource): boolean {
  return link.status === 'active' && link.payments.every((p) => p.status === 'paid_late' || /^0(\.0*)?$/.test(p.received_crypto));
}
