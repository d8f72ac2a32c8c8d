// pay-checkout/react: <PayCheckout> for React 17 and later, the element wrapped with @lit/react so that props
// become properties and the element's events become typed callbacks. Importing it registers <pay-checkout>; its
// types (dist/jsx/react.d.ts) also type the bare tag in React 19's JSX.
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { PayCheckout as PayCheckoutElement, TAG } from '../checkout/define.js';
import * as events from '../checkout/events.js';

/** An event class's name, typed with the class, so each callback gets its event. */
const event = <E extends Event>(type: { eventName: string; prototype: E }) => type.eventName as EventName<E>;

export const PayCheckout = createComponent({
  react: React,
  tagName: TAG,
  elementClass: PayCheckoutElement,
  displayName: 'PayCheckout',
  events: {
    onPayCheckoutReady: event(events.PayCheckoutReadyEvent),
    onPayCheckoutStatus: event(events.PayCheckoutStatusEvent),
    onPayCheckoutSuccess: event(events.PayCheckoutSuccessEvent),
    onPayCheckoutFailure: event(events.PayCheckoutFailureEvent),
    onPayCheckoutBack: event(events.PayCheckoutBackEvent),
    onPayCheckoutError: event(events.PayCheckoutErrorEvent),
  },
});

export * from '../checkout/events.js';
