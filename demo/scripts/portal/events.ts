// What the portal's pieces tell each other, as small Event subclasses that bubble to <merchant-portal>.
import type { PaymentLinkResource, RefundList, RefundResource } from '../../../src/contract/index.js';

/** What the refund form opens with: the order's links, and optionally a payment, amount and reason to start from. */
export interface RefundRequest {
  orderId: string;
  links: PaymentLinkResource[];
  /** The order's refunds as the merchant sees them: what earlier refunds of a payment send. */
  refunds?: RefundResource[];
  paymentId?: string;
  amount?: number;
  reason?: string;
}

/** A page asks for the refund form. */
export class RefundRequestEvent extends Event {
  constructor(readonly request: RefundRequest) {
    super('refund-request', { bubbles: true, composed: true });
  }
}

/** The gateway took a refund: every refund of the order, as the refund list answers. */
export class RefundedEvent extends Event {
  constructor(
    readonly orderId: string,
    readonly list: RefundList,
  ) {
    super('refunded', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'refund-request': RefundRequestEvent;
    refunded: RefundedEvent;
  }
}
