// The element's events (src/checkout/README.md, "Views"): one class each, bubbling and composed so a page hears them
// through the shadow root; cancelable where the element has a default action (a navigation).
import type { CheckoutView, Payment } from '../contract/checkout.js';
import type { CheckoutErrorCode } from './api.js';

const options = (cancelable: boolean): EventInit => ({ bubbles: true, composed: true, cancelable });

/** The link is loaded and shown. */
export class PayCheckoutReadyEvent extends Event {
  static readonly eventName = 'pay-checkout-ready';
  constructor(readonly detail: { view: CheckoutView }) {
    super(PayCheckoutReadyEvent.eventName, options(false));
  }
}

/** The payment changed status (as the gateway says), or a payment appeared. */
export class PayCheckoutStatusEvent extends Event {
  static readonly eventName = 'pay-checkout-status';
  constructor(readonly detail: { payment: Payment }) {
    super(PayCheckoutStatusEvent.eventName, options(false));
  }
}

/** Paid: the element is about to go to `url` (the signed success URL). `preventDefault()` keeps it on the page. */
export class PayCheckoutSuccessEvent extends Event {
  static readonly eventName = 'pay-checkout-success';
  constructor(readonly detail: { payment: Payment; url: string }) {
    super(PayCheckoutSuccessEvent.eventName, options(true));
  }
}

/** The customer gave up or the link expired: the element is about to go to `url` (the signed failure URL). Cancelable. */
export class PayCheckoutFailureEvent extends Event {
  static readonly eventName = 'pay-checkout-failure';
  constructor(readonly detail: { reason: 'cancelled' | 'link_expired' | 'link_cancelled'; url: string }) {
    super(PayCheckoutFailureEvent.eventName, options(true));
  }
}

/** The customer pressed Back: the element is about to go to the merchant's `back_url`. Cancelable. */
export class PayCheckoutBackEvent extends Event {
  static readonly eventName = 'pay-checkout-back';
  constructor(readonly detail: { url: string }) {
    super(PayCheckoutBackEvent.eventName, options(true));
  }
}

/** Something failed: the link could not be loaded, a payment could not be opened, an answer was malformed. */
export class PayCheckoutErrorEvent extends Event {
  static readonly eventName = 'pay-checkout-error';
  constructor(readonly detail: { code: CheckoutErrorCode; message: string }) {
    super(PayCheckoutErrorEvent.eventName, options(false));
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pay-checkout-ready': PayCheckoutReadyEvent;
    'pay-checkout-status': PayCheckoutStatusEvent;
    'pay-checkout-success': PayCheckoutSuccessEvent;
    'pay-checkout-failure': PayCheckoutFailureEvent;
    'pay-checkout-back': PayCheckoutBackEvent;
    'pay-checkout-error': PayCheckoutErrorEvent;
  }
}
