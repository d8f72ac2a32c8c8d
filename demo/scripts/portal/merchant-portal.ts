// <merchant-portal>: the portal's two pages in one document: the transactions (/portal, its filters in the query)
// and an order (/portal/orders/{order_id}), moved between with the browser's history, so Back returns to the list
// as it was. The one refund form serves both.
import { html, type TemplateResult } from 'lit';
import { query, state } from 'lit/decorators.js';
import { LightElement } from '../lib/light-element.js';
import { formatVnd } from '../lib/ui.js';
import type { RefundedEvent, RefundRequestEvent } from './events.js';
import type { OrderPage } from './order-page.js';
import type { RefundDialog } from './refund-dialog.js';
import { orderPath, type TransactionsPage } from './transactions-page.js';

type Route = { page: 'list' } | { page: 'order'; orderId: string };

const ORDER = /^\/portal\/orders\/([^/]+)$/;

function routeOf(pathname: string): Route {
  const match = ORDER.exec(pathname);
  return match ? { page: 'order', orderId: decodeURIComponent(match[1]!) } : { page: 'list' };
}

/**
 * @summary The merchant portal: transactions and orders, with the refund form.
 */
export class MerchantPortal extends LightElement {
  @state() private route: Route = routeOf(location.pathname);
  /** The list's address with its filters, for the order page's way back. */
  @state() private listPath = '/portal';
  @query('portal-transactions') private list!: TransactionsPage;
  @query('portal-order') private order?: OrderPage;
  @query('refund-dialog') private refundDialog!: RefundDialog;
  /** An order's page was shown since the list loaded: the list loads again when shown. */
  #listStale = false;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.#onPopState);
    if (this.route.page === 'list') this.listPath = location.pathname + location.search;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.#onPopState);
  }

  #onPopState = () => this.#show(routeOf(location.pathname));

  #show(route: Route): void {
    if (route.page === 'list') {
      this.listPath = location.pathname + location.search;
      if (this.#listStale) this.list.reload();
    }
    // What is done on an order's page (refunds, accepts) shows in the list when it is shown again.
    this.#listStale = route.page === 'order';
    this.route = route;
    document.title = `${route.page === 'order' ? `Order ${route.orderId}` : 'Merchant portal'} · pay-checkout sandbox`;
    void this.updateComplete.then(() => {
      window.scrollTo(0, 0);
      this.querySelector<HTMLElement>(route.page === 'order' ? 'portal-order h1, portal-order p' : 'portal-transactions h1')?.focus();
    });
  }

  navigate(path: string): void {
    if (this.route.page === 'list') this.listPath = location.pathname + location.search;
    history.pushState(null, '', path);
    this.#show(routeOf(location.pathname));
  }

  /** Links to the portal's own pages move within the page; anything else (or a modified click) is the browser's. */
  #onClick = (event: MouseEvent) => {
    const anchor = (event.target as Element).closest('a');
    if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === '/portal' || ORDER.test(url.pathname))) return;
    event.preventDefault();
    this.navigate(url.pathname + url.search);
  };

  #onRefundRequest = (event: RefundRequestEvent) => this.refundDialog.open(event.request);

  #onRefunded = async (event: RefundedEvent) => {
    const notice = `Refund requested: PENDING until its payout is confirmed on chain. Left to refund on order ${event.orderId}: ${formatVnd(event.list.amountToRefund)}.`;
    if (this.route.page !== 'order' || this.route.orderId !== event.orderId) this.navigate(orderPath(event.orderId));
    await this.updateComplete;
    await this.order?.reload(notice);
  };

  protected override render(): TemplateResult {
    const route = this.route;
    return html`<div @click=${this.#onClick} @refund-request=${this.#onRefundRequest} @refunded=${this.#onRefunded}>
      <gateway-health ?hidden=${route.page !== 'list'}></gateway-health>
      <portal-transactions ?hidden=${route.page !== 'list'}></portal-transactions>
      ${route.page === 'order' ? html`<portal-order order-id=${route.orderId} .listPath=${this.listPath}></portal-order>` : ''}
      <refund-dialog></refund-dialog>
    </div>`;
  }
}
