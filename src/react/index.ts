// pay-checkout/react: <PayCheckout> for React 17 and later, the element wrapped with @lit/react so that props
// become properties and the element's events become typed callbacks. Importing it registers <pay-checkout>; its
// types (dist/jsx/react.d.ts) also type the bare tag in React 19's JSX.
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { PayCheckout as PayCheckoutElement, TAG } from '../checkout/define.js';
import {
  PayCheckoutBackEvent,
  PayCheckoutErrorEvent,
  PayCheckoutFailureEvent,
  PayCheckoutReadyEvent,
  PayCheckoutStatusEvent,
  PayCheckoutSuccessEvent,
} from '../checkout/events.js';

const event = <E extends Event>(type: { eventName: string }) => type.eventName as EventName<E>;

export const PayCheckout = createComponent({
  react: React,
  tagName: TAG,
  elementClass: PayCheckoutElement,
  displayName: 'PayCheckout',
  events: {
    onPayCheckoutReady: event<PayCheckoutReadyEvent>(PayCheckoutReadyEvent),
    onPayCheckoutStatus: event<PayCheckoutStatusEvent>(PayCheckoutStatusEvent),
    onPayCheckoutSuccess: event<PayCheckoutSuccessEvent>(PayCheckoutSuccessEvent),
    onPayCheckoutFailure: event<PayCheckoutFailureEvent>(PayCheckoutFailureEvent),
    onPayCheckoutBack: event<PayCheckoutBackEvent>(PayCheckoutBackEvent),
    onPayCheckoutError: event<PayCheckoutErrorEvent>(PayCheckoutErrorEvent),
  },
});

export * from '../checkout/events.js';
