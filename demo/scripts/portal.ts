// The merchant portal (/portal, /portal/orders/{order_id}): the elements of demo/scripts/portal/, registered here.
import { showSession } from './lib/session.js';
import { GatewayHealth } from './portal/gateway-health.js';
import { MerchantPortal } from './portal/merchant-portal.js';
import { loadNetworks } from './portal/networks.js';
import { OrderPage } from './portal/order-page.js';
import { RefundDialog } from './portal/refund-dialog.js';
import { TransactionsPage } from './portal/transactions-page.js';
import { defineDeliveryDetail } from './webhooks/delivery-views.js';

declare global {
  interface HTMLElementTagNameMap {
    'merchant-portal': MerchantPortal;
    'gateway-health': GatewayHealth;
    'portal-transactions': TransactionsPage;
    'portal-order': OrderPage;
    'refund-dialog': RefundDialog;
  }
}

// The pages name coins and count refunds with the gateway's networks: known before they draw. Without them (the
// gateway did not answer) the pages still work, naming networks by id.
void loadNetworks()
  .catch((error: unknown) => console.error('The gateway did not tell its networks (GET /sandbox/chain):', error))
  .then(() => {
    customElements.define('portal-transactions', TransactionsPage);
    customElements.define('portal-order', OrderPage);
    customElements.define('refund-dialog', RefundDialog);
    customElements.define('gateway-health', GatewayHealth);
    defineDeliveryDetail();
    customElements.define('merchant-portal', MerchantPortal);
  });
void showSession();
