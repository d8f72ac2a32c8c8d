// The portal's transactions page: the merchant's payment links through the read API, newest first, a page at a
// time (its cursor), searched and filtered (the filters live in the page's address), with the customer, the coin,
// the crypto amount and the payment's status on each row; money held for the merchant flagged; a row menu with
// "Refund" (docs/guide.md, the portal) and the order's page.
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { PaymentLinkList, PaymentLinkResource } from '../../../src/contract/index.js';
import { api } from '../lib/api.js';
import { LightElement } from '../lib/light-element.js';
import { checkbox, fieldId, formatDate, formatVnd, input, select } from '../lib/ui.js';
import { dayExample, formatDay, parseDay } from './days.js';
import { RefundRequestEvent } from './events.js';
import { addressOf, apiQuery, assetChoices, filtersFrom, NO_FILTERS, PAGE_SIZES, pageFrom, searchOf, STATUS_CHOICES, type Filters } from './list-query.js';
import { heldOf, mainPayment, orderStatus, refundedOf } from './money.js';
import { networks } from './networks.js';
import { coin, cryptoReceived, paymentPill } from './views.js';


/** An e-mail that may break only after its @ (or whole words of a long part): never in the middle of a name. */
function emailParts(email: string): TemplateResult {
  const at = email.lastIndexOf('@');
  return at < 0 ? html`${email}` : html`${email.slice(0, at)}@<wbr />${email.slice(at + 1)}`;
}

/** "Page 2 of 5: links 26–50 of 120", as much of it as is known. */
function pageSummary(number: number, first: number, shown: number, total: number | undefined, limit: number): string {
  if (total === undefined) return shown ? `Page ${number}: links ${first}–${first + shown - 1}` : `Page ${number}`;
  const pages = Math.max(1, Math.ceil(total / limit));
  return shown ? `Page ${number} of ${pages}: links ${first}–${first + shown - 1} of ${total}` : `Page ${number} of ${pages}: no links`;
}

/** The order page's address. */
export const orderPath = (orderId: string) => `/portal/orders/${encodeURIComponent(orderId)}`;

/**
 * @summary The transactions page. Its filters come from, and go to, the page's address.
 */
export class TransactionsPage extends LightElement {
  @state() private filters: Filters = filtersFrom(new URLSearchParams(location.search));
  @state() private draft: Filters = this.filters;
  /** The page size, and the cursors of the pages so far (the first page has none), so "Previous" goes back without a request of its own kind; kept in the address too. */
  @state() private limit = pageFrom(new URLSearchParams(location.search)).limit;
  @state() private cursors: (string | undefined)[] = pageFrom(new URLSearchParams(location.search)).cursors;
  /** The order whose row menu is open. */
  @state() private menuFor: string | undefined;
  /** The date filters as typed (the page's way of writing a day, demo/scripts/portal/days.ts). */
  @state() private dayText = { from: formatDay(this.filters.from), to: formatDay(this.filters.to) };

  readonly #list = new Task(this, {
    task: ([filters, limit, cursor]) => {
      const query = apiQuery(filters, { limit, cursor });
      query.set('include_total', 'true');
      return api<PaymentLinkList>(`/demo/api/transactions?${query}`);
    },
    args: () => [this.filters, this.limit, this.cursors.at(-1)] as const,
  });

  /** Loads the current page again (after a refund or an accept elsewhere). */
  reload(): void {
    void this.#list.run();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('click', this.#closeMenuOutside);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('click', this.#closeMenuOutside);
  }

  #closeMenuOutside = (event: Event) => {
    if (this.menuFor && !(event.target as Element).closest('.row-menu')) this.#closeMenu(false);
  };

  #apply(filters: Filters): void {
    this.filters = filters;
    this.draft = filters;
    this.dayText = { from: formatDay(filters.from), to: formatDay(filters.to) };
    this.#goTo(this.limit, [undefined]);
  }

  /** Shows this page, and says so in the address: a reload or a shared link opens the same page of the same list. */
  #goTo(limit: number, cursors: (string | undefined)[]): void {
    this.limit = limit;
    this.cursors = cursors;
    const search = addressOf(this.filters, { limit, cursors }).toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
  }

  #setDraft<K extends keyof Filters>(key: K, value: Filters[K], applyNow: boolean): void {
    this.draft = { ...this.draft, [key]: value };
    if (applyNow) this.#apply(this.draft);
  }

  /** A day typed: the list follows once it reads as one (or is emptied); the field says so when it cannot. */
  #typeDay(key: 'from' | 'to', text: string): void {
    const day = text.trim() ? parseDay(text) : '';
    if (day === undefined) {
      this.dayText = { ...this.dayText, [key]: text };
      return;
    }
    this.draft = { ...this.draft, [key]: day };
    this.#apply(this.draft);
    this.dayText = { ...this.dayText, [key]: text };
  }

  #dayField(key: 'from' | 'to', label: string): TemplateResult {
    const text = this.dayText[key];
    // Said once the year is there: not while the merchant is still typing it.
    const wrong = /\d{4}/.test(text) && parseDay(text) === undefined;
    return input({
      path: `filter.${key}`,
      label,
      type: 'text',
      inputmode: 'numeric',
      value: text,
      hint: `Day/month/year, such as ${dayExample()}.`,
      error: wrong ? `must be a day, such as ${dayExample()}` : undefined,
      onInput: (v) => this.#typeDay(key, v),
    });
  }

  #filtersForm(): TemplateResult {
    const d = this.draft;
    const filtered = searchOf(this.filters).size > 0;
    return html`<form class="filters" role="search" aria-label="Transactions" @submit=${(e: Event) => (e.preventDefault(), this.#apply({ ...this.draft, q: this.draft.q.trim() }))}>
      <div class="search-field">
        ${input({
          path: 'filter.q',
          label: 'Search',
          type: 'search',
          value: d.q,
          hint: 'What the customer quotes: an order, link, payment or refund id, a transaction (its first 8 characters do), an address, the amount (530.000), a name, e-mail or phone.',
          onInput: (v) => this.#setDraft('q', v, false),
        })}
        <button type="submit" class="primary">Search</button>
      </div>
      ${select({ path: 'filter.status', label: 'Status', value: d.status, options: STATUS_CHOICES, onChange: (v) => this.#setDraft('status', v as Filters['status'], true) })}
      ${checkbox({ path: 'filter.held', label: 'Holding money for you', checked: d.held === 'true', onChange: (on) => this.#setDraft('held', on ? 'true' : '', true) })}
      ${select({ path: 'filter.asset', label: 'Coin', value: d.asset, options: assetChoices(networks()), onChange: (v) => this.#setDraft('asset', v, true) })}
      ${this.#dayField('from', 'Created from')} ${this.#dayField('to', 'Created to (included)')}
      ${filtered ? html`<button type="button" class="link-button" @click=${() => this.#apply(NO_FILTERS)}>Clear filters</button>` : nothing}
    </form>`;
  }

  // ---- the row menu (WAI-ARIA menu button pattern) ----

  #menuId = (orderId: string) => `menu-${fieldId(orderId)}`;

  #menuItems = () => [...this.querySelectorAll<HTMLButtonElement>('[role="menu"]:not([hidden]) [role="menuitem"]')];

  async #openMenu(orderId: string, focus: 'first' | 'last' = 'first'): Promise<void> {
    this.menuFor = orderId;
    await this.updateComplete;
    const items = this.#menuItems();
    items[focus === 'first' ? 0 : items.length - 1]?.focus();
  }

  async #closeMenu(returnFocus: boolean): Promise<void> {
    const orderId = this.menuFor;
    this.menuFor = undefined;
    await this.updateComplete;
    if (returnFocus && orderId) this.querySelector<HTMLButtonElement>(`[aria-controls="${this.#menuId(orderId)}"]`)?.focus();
  }

  #onMenuButtonKey(event: KeyboardEvent, orderId: string): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      void this.#openMenu(orderId, event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  #onMenuKey(event: KeyboardEvent): void {
    const items = this.#menuItems();
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at - 1),
      Home: () => move(0),
      End: () => move(items.length - 1),
      Escape: () => void this.#closeMenu(true),
      Tab: () => void this.#closeMenu(false),
    };
    const action = keys[event.key];
    if (!action) return;
    if (event.key !== 'Tab') event.preventDefault();
    action();
  }

  #rowMenu(link: PaymentLinkResource): TemplateResult {
    const id = link.merchant_order_id;
    const open = this.menuFor === id;
    const refundable = link.amountToRefund > 0;
    const refund = () => {
      void this.#closeMenu(false);
      this.dispatchEvent(new RefundRequestEvent({ orderId: id, links: [link] }));
    };
    return html`<div class="row-menu">
      <button
        type="button"
        class="dots"
        aria-haspopup="menu"
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls=${this.#menuId(id)}
        aria-label="Actions for order ${id}"
        @click=${() => (open ? this.#closeMenu(true) : this.#openMenu(id))}
        @keydown=${(e: KeyboardEvent) => this.#onMenuButtonKey(e, id)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <div role="menu" id=${this.#menuId(id)} aria-label="Order ${id}" ?hidden=${!open} @keydown=${this.#onMenuKey}>
        <button type="button" role="menuitem" tabindex="-1" aria-disabled=${refundable ? 'false' : 'true'} @click=${() => (refundable ? refund() : undefined)}>
          Refund${refundable ? '' : ' (nothing to refund)'}
        </button>
        <a role="menuitem" tabindex="-1" href=${orderPath(id)} @click=${() => void this.#closeMenu(false)}>View order</a>
      </div>
    </div>`;
  }

  #row(link: PaymentLinkResource): TemplateResult {
    const payment = mainPayment(link);
    const held = heldOf(link);
    const customer = link.customer;
    return html`<tr data-order=${link.merchant_order_id} data-ref=${link.payment_link_ref}>
      <th scope="row">
        <a class="mono" href=${orderPath(link.merchant_order_id)}>${link.merchant_order_id}</a>
        ${held > 0 ? html`<span class="pill held" data-held=${held} title="Money held for you: accept or refund it on the order's page">Holding ${formatVnd(held)}</span>` : nothing}
      </th>
      <td>${formatDate(link.created_at)}</td>
      <td class="customer">
        ${customer ? html`${customer.name ?? ''}${customer.email ? html`<span class="muted email">${emailParts(customer.email)}</span>` : nothing}` : html`<span class="muted">—</span>`}
      </td>
      <td class="num">${formatVnd(link.amount)}</td>
      <td>${payment ? coin(payment.asset, payment.network) : '—'}</td>
      <td class="num" data-crypto>${payment ? cryptoReceived(payment) : '—'}</td>
      <td><span class="pill ${link.status}" data-status=${orderStatus(link)}>${orderStatus(link).replace('_', ' ')}</span></td>
      <td>${payment ? paymentPill(payment) : html`<span class="muted">no payment yet</span>`}</td>
      <td class="num" data-left=${link.amountToRefund}>${link.amountToRefund > 0 || refundedOf(link) > 0 ? formatVnd(link.amountToRefund) : '—'}</td>
      <td>${this.#rowMenu(link)}</td>
    </tr>`;
  }

  #table(page: PaymentLinkList): TemplateResult {
    if (!page.payment_links.length) {
      return searchOf(this.filters).size
        ? html`<p data-empty>No payment links match these filters: change one, or clear them (above).</p>`
        : html`<p data-empty>No payment links yet. <a href="/">Build one</a>, pay it with the test wallet, and it shows here.</p>`;
    }
    return html`<div class="table-wrap">
      <table class="transactions">
        <caption class="visually-hidden">Payment links, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            ${this.#sortable('created_at', 'Created')}
            <th scope="col">Customer</th>
            ${this.#sortable('amount', 'Amount', 'num')}
            <th scope="col">Coin</th>
            <th scope="col" class="num">Crypto</th>
            <th scope="col">Link</th>
            <th scope="col">Payment</th>
            <th scope="col" class="num">Left to refund</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${page.payment_links.map((link) => this.#row(link))}
        </tbody>
      </table>
    </div>`;
  }

  #pager(page: PaymentLinkList | undefined): TemplateResult {
    const number = this.cursors.length;
    const first = (number - 1) * this.limit + 1;
    const shown = page?.payment_links.length ?? 0;
    return html`<nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" ?disabled=${number === 1} @click=${() => this.#goTo(this.limit, this.cursors.slice(0, -1))}>Previous page</button>
      <span role="status" data-page=${number} data-total=${page?.total ?? ''}>${pageSummary(number, first, shown, page?.total, this.limit)}</span>
      <button type="button" class="secondary" ?disabled=${!page?.next_cursor} @click=${() => page?.next_cursor && this.#goTo(this.limit, [...this.cursors, page.next_cursor])}>Next page</button>
      ${select({
        path: 'filter.limit',
        label: 'Per page',
        value: String(this.limit),
        options: PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })),
        onChange: (v) => this.#goTo(Number(v), [undefined]),
      })}
    </nav>`;
  }

  /** A column header that sorts the list by it: newest or largest first on the first press, then the other way. */
  #sortable(by: 'created_at' | 'amount', label: string, className = ''): TemplateResult {
    const sort = this.filters.sort || '-created_at';
    const current = sort.replace('-', '') === by ? (sort.startsWith('-') ? 'descending' : 'ascending') : undefined;
    const next: Filters['sort'] = current === 'descending' ? by : `-${by}`;
    return html`<th scope="col" class=${className} aria-sort=${current ?? 'none'}>
      <button type="button" class="sort" data-sort=${by} @click=${() => this.#apply({ ...this.filters, sort: next === '-created_at' ? '' : next })}>
        ${label}<span aria-hidden="true">${current === 'descending' ? ' ↓' : current === 'ascending' ? ' ↑' : ''}</span>
      </button>
    </th>`;
  }

  /** The export of the list as filtered: the same query, every page (demo/transactions-csv.ts). */
  #exportHref(): string {
    const query = apiQuery(this.filters, { limit: this.limit });
    query.delete('limit');
    return `/demo/api/transactions.csv?${query}`;
  }

  protected override render(): TemplateResult {
    return html`<h1>Payment transactions</h1>
      <p class="lede">Your payment links, newest first. Open an order for its payments, refunds and webhooks; money held for you is flagged, to accept or refund there.</p>
      ${this.#filtersForm()}
      <p class="export"><a href=${this.#exportHref()} download data-export>Export these links (CSV)</a> <span class="muted small">every page of the list as filtered, amounts as plain numbers</span></p>
      ${this.#list.render({
        initial: () => html`<p role="status">Loading transactions…</p>`,
        // The page on screen stays while the next one loads.
        pending: () =>
          this.#list.value ? html`<div data-list="loading" aria-busy="true">${this.#table(this.#list.value)}</div>` : html`<p role="status">Loading transactions…</p>`,
        // The query the page shows, for whoever waits for a list to settle (the end-to-end tests).
        complete: (page) => html`<div data-list="ready" data-query=${apiQuery(this.filters, { limit: this.limit, cursor: this.cursors.at(-1) }).toString()}>${this.#table(page)}</div>
          ${this.#pager(page)}`,
        error: (error) => html`<p class="error-box" role="alert">
          ${(error as Error).message} <button type="button" class="secondary small" @click=${() => this.reload()}>Retry</button>
        </p>`,
      })}`;
  }
}
