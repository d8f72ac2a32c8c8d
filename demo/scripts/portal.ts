// The merchant portal (seed section 1, refund flow): the transactions page, a row menu with "Refund", the refund
// form checked with the contract's own schema, then every refund of the order. The demo's server calls the gateway.
import { html, nothing, render, type TemplateResult } from 'lit';
import { CreateRefundRequest, fieldErrors, type PaymentLinkResource, type Problem, type RefundList } from '../../src/contract/index.js';
import { api, ApiError } from './lib/api.js';
import { showSession } from './lib/session.js';
import { fieldId, formatDate, formatVnd, input } from './lib/ui.js';

interface RefundDraft {
  refund_type: 'partial' | 'full';
  amount: string;
  description: string;
  refund_reason: string;
}

const state = {
  links: [] as PaymentLinkResource[],
  loading: true,
  loadError: '',
  /** The order whose row menu is open. */
  menuFor: undefined as string | undefined,
  /** The link being refunded (the dialog is open while set). */
  refunding: undefined as PaymentLinkResource | undefined,
  draft: { refund_type: 'partial', amount: '', description: '', refund_reason: '' } as RefundDraft,
  errors: new Map<string, string>(),
  problem: undefined as Problem | undefined,
  sending: false,
  /** The refunds listed below the table: an order's, after a refund or "View refunds". */
  shown: undefined as { orderId: string; list: RefundList } | undefined,
};

const host = document.getElementById('portal')!;

async function load(): Promise<void> {
  state.loading = true;
  update();
  try {
    state.links = (await api<{ payment_links: PaymentLinkResource[] }>('/demo/api/transactions')).payment_links;
    state.loadError = '';
  } catch (error) {
    state.loadError = error instanceof ApiError ? error.message : String(error);
  } finally {
    state.loading = false;
    update();
  }
}

/** The status a merchant reads: the link's, and the last payment's when it says more. */
function statusOf(link: PaymentLinkResource): string {
  const payment = link.payments.at(-1);
  if (!payment || payment.status === link.status) return link.status;
  return `${link.status} · payment ${payment.status.replace('_', ' ')}${payment.overpaid ? ' (overpaid)' : ''}`;
}

// ---- the row menu (WAI-ARIA menu button pattern) ----

const menuId = (orderId: string) => `menu-${fieldId(orderId)}`;

function openMenu(orderId: string, focus: 'first' | 'last' = 'first'): void {
  state.menuFor = orderId;
  update();
  const items = menuItems();
  items[focus === 'first' ? 0 : items.length - 1]?.focus();
}

function closeMenu(returnFocus: boolean): void {
  const orderId = state.menuFor;
  state.menuFor = undefined;
  update();
  if (returnFocus && orderId) document.querySelector<HTMLButtonElement>(`[aria-controls="${menuId(orderId)}"]`)?.focus();
}

const menuItems = () => [...document.querySelectorAll<HTMLButtonElement>('[role="menu"] [role="menuitem"]')];

function onMenuButtonKey(event: KeyboardEvent, orderId: string): void {
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    openMenu(orderId, event.key === 'ArrowDown' ? 'first' : 'last');
  }
}

function onMenuKey(event: KeyboardEvent): void {
  const items = menuItems();
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  const move = (to: number) => items[(to + items.length) % items.length]?.focus();
  const keys: Record<string, () => void> = {
    ArrowDown: () => move(at + 1),
    ArrowUp: () => move(at - 1),
    Home: () => move(0),
    End: () => move(items.length - 1),
    Escape: () => closeMenu(true),
    Tab: () => closeMenu(false),
  };
  const action = keys[event.key];
  if (!action) return;
  if (event.key !== 'Tab') event.preventDefault();
  action();
}

document.addEventListener('click', (event) => {
  if (state.menuFor && !(event.target as Element).closest('.row-menu')) closeMenu(false);
});

function rowMenu(link: PaymentLinkResource): TemplateResult {
  const id = link.merchant_order_id;
  const open = state.menuFor === id;
  const paid = link.status === 'paid';
  return html`<div class="row-menu">
    <button
      type="button"
      class="dots"
      aria-haspopup="menu"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${menuId(id)}
      aria-label="Actions for order ${id}"
      @click=${() => (open ? closeMenu(true) : openMenu(id))}
      @keydown=${(e: KeyboardEvent) => onMenuButtonKey(e, id)}
    >
      <span aria-hidden="true">⋯</span>
    </button>
    <div role="menu" id=${menuId(id)} aria-label="Order ${id}" ?hidden=${!open} @keydown=${onMenuKey}>
      <button
        type="button"
        role="menuitem"
        tabindex="-1"
        aria-disabled=${paid ? 'false' : 'true'}
        @click=${() => (paid ? startRefund(link) : undefined)}
      >
        Refund${paid ? '' : ' (only a paid order)'}
      </button>
      <button type="button" role="menuitem" tabindex="-1" @click=${() => showRefunds(id)}>View refunds</button>
    </div>
  </div>`;
}

// ---- the refund form ----

const dialog = () => document.getElementById('refund-dialog') as HTMLDialogElement;

function startRefund(link: PaymentLinkResource): void {
  state.menuFor = undefined;
  state.refunding = link;
  state.draft = { refund_type: 'partial', amount: '', description: '', refund_reason: '' };
  state.errors.clear();
  state.problem = undefined;
  update();
  dialog().showModal();
  document.getElementById(fieldId('refund.amount'))?.focus();
}

function setDraft<K extends keyof RefundDraft>(key: K, value: RefundDraft[K]): void {
  state.draft[key] = value;
  if (key === 'refund_type' && value === 'full' && state.refunding) state.draft.amount = String(state.refunding.amountToRefund);
  update();
}

/** The request the gateway takes (seed 2.8); numbers only where the text is one, so the schema names the rest. */
function refundRequest(): Record<string, unknown> {
  const amount = state.draft.amount.trim();
  return {
    amount: /^\d+$/.test(amount) ? Number(amount) : amount,
    channel: 'PROVIDER',
    description: state.draft.description.trim(),
    refund_type: state.draft.refund_type,
    refund_reason: state.draft.refund_reason.trim(),
  };
}

async function submitRefund(event: Event): Promise<void> {
  event.preventDefault();
  const link = state.refunding;
  if (!link) return;
  state.errors.clear();
  state.problem = undefined;
  const checked = CreateRefundRequest.safeParse(refundRequest());
  if (!checked.success) {
    for (const e of fieldErrors(checked.error)) state.errors.set(e.path, e.message);
    update();
    dialog().querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    return;
  }
  state.sending = true;
  update();
  try {
    const list = await api<RefundList>(`/demo/api/orders/${encodeURIComponent(link.merchant_order_id)}/refunds`, { body: checked.data });
    state.refunding = undefined;
    dialog().close();
    state.shown = { orderId: link.merchant_order_id, list };
    await load();
    document.getElementById('refunds-title')?.focus();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    state.problem = error.problem;
    for (const e of error.fieldErrors) state.errors.set(e.path, e.message);
    update();
    document.getElementById('refund-problem')?.focus();
  } finally {
    state.sending = false;
    update();
  }
}

async function showRefunds(orderId: string): Promise<void> {
  closeMenu(false);
  try {
    state.shown = { orderId, list: await api<RefundList>(`/demo/api/orders/${encodeURIComponent(orderId)}/refunds`) };
  } catch (error) {
    state.loadError = error instanceof ApiError ? error.message : String(error);
  }
  update();
  document.getElementById('refunds-title')?.focus();
}

function refundDialog(): TemplateResult {
  const link = state.refunding;
  const d = state.draft;
  const error = (path: string) => state.errors.get(path);
  return html`<dialog id="refund-dialog" aria-labelledby="refund-title" @close=${() => ((state.refunding = undefined), update())}>
    ${link
      ? html`<form method="dialog" class="refund-form" novalidate @submit=${submitRefund}>
          <h2 id="refund-title">Refund order ${link.merchant_order_id}</h2>
          <p>Paid ${formatVnd(link.amount)}; left to refund <strong data-left>${formatVnd(link.amountToRefund)}</strong>.</p>
          ${state.problem
            ? html`<div class="problem" id="refund-problem" tabindex="-1" role="alert">
                <p><strong>The gateway refused the refund (${state.problem.status}).</strong> ${state.problem.detail ?? state.problem.title}</p>
              </div>`
            : nothing}
          <fieldset class="inline">
            <legend>Refund type</legend>
            ${(['partial', 'full'] as const).map(
              (type) => html`<label class="radio"
                ><input
                  type="radio"
                  name="refund_type"
                  value=${type}
                  .checked=${d.refund_type === type}
                  @change=${() => setDraft('refund_type', type)}
                />
                ${type === 'partial' ? 'Partial' : 'Full (what is left)'}</label
              >`,
            )}
          </fieldset>
          ${input({
            path: 'refund.amount',
            label: 'Amount (VND)',
            required: true,
            inputmode: 'numeric',
            value: d.amount,
            error: error('amount'),
            disabled: d.refund_type === 'full',
            onInput: (v) => setDraft('amount', v),
          })}
          ${input({ path: 'refund.description', label: 'Note / description', required: true, value: d.description, error: error('description'), onInput: (v) => setDraft('description', v) })}
          ${input({ path: 'refund.refund_reason', label: 'Reason', required: true, value: d.refund_reason, error: error('refund_reason'), onInput: (v) => setDraft('refund_reason', v) })}
          <p class="muted">Channel: <code>PROVIDER</code> (the crypto payment's). The sandbox sends the refund back on chain to the address that paid.</p>
          <div class="buttons">
            <button type="submit" class="primary" ?disabled=${state.sending}>${state.sending ? 'Refunding…' : 'Refund'}</button>
            <button type="button" class="secondary" @click=${() => dialog().close()}>Cancel</button>
          </div>
        </form>`
      : nothing}
  </dialog>`;
}

function refundsSection(): TemplateResult | typeof nothing {
  const shown = state.shown;
  if (!shown) return nothing;
  const { amountToRefund, refundDetails } = shown.list;
  return html`<section class="card" aria-labelledby="refunds-title">
    <h2 id="refunds-title" tabindex="-1">Refunds of order ${shown.orderId}</h2>
    <p>Left to refund (<code>amountToRefund</code>): <strong data-amount-to-refund=${amountToRefund}>${formatVnd(amountToRefund)}</strong></p>
    ${refundDetails.length
      ? html`<div class="table-wrap">
          <table class="refunds">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Refund id</th>
                <th scope="col" class="num">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col">Reason</th>
                <th scope="col">Chain transaction</th>
              </tr>
            </thead>
            <tbody>
              ${refundDetails.map(
                (r) => html`<tr data-refund=${r.refund_id}>
                  <td>${formatDate(r.refund_date)}</td>
                  <td class="mono">${r.refund_id}</td>
                  <td class="num">${formatVnd(r.amount)}</td>
                  <td><span class="pill ${r.refund_status.toLowerCase()}" data-refund-status>${r.refund_status}</span></td>
                  <td>${r.refund_type}</td>
                  <td>${r.refund_reason}</td>
                  <td class="mono wrap">${r.psp_refund_id || '—'}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
      : html`<p>No refunds yet.</p>`}
  </section>`;
}

function transactions(): TemplateResult {
  if (state.loadError) return html`<p class="error-box" role="alert">${state.loadError}</p>`;
  if (state.loading && !state.links.length) return html`<p role="status">Loading transactions…</p>`;
  if (!state.links.length) return html`<p>No payment links yet. <a href="/">Build one</a>, pay it with the test wallet, and it shows here.</p>`;
  return html`<div class="table-wrap">
    <table class="transactions">
      <caption class="visually-hidden">Payment transactions, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Order id</th>
          <th scope="col">Created</th>
          <th scope="col" class="num">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Paid at</th>
          <th scope="col" class="num">Left to refund</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${state.links.map(
          (link) => html`<tr data-order=${link.merchant_order_id}>
            <th scope="row" class="mono">${link.merchant_order_id}</th>
            <td>${formatDate(link.created_at)}</td>
            <td class="num">${formatVnd(link.amount)}</td>
            <td><span class="pill ${link.status}" data-status>${statusOf(link)}</span></td>
            <td>${formatDate(link.paid_at)}</td>
            <td class="num">${link.status === 'paid' ? formatVnd(link.amountToRefund) : '—'}</td>
            <td>${rowMenu(link)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function update(): void {
  render(
    html`<p><button type="button" class="secondary" @click=${load} ?disabled=${state.loading}>Refresh</button></p>
      ${transactions()} ${refundsSection()} ${refundDialog()}`,
    host,
  );
}

void load();
void showSession();
