// Registers <pay-checkout>. A page that loads the script twice (or two versions of it) gets a warning, not an exception.
import { PayCheckout } from './pay-checkout/pay-checkout.js';

export const TAG = 'pay-checkout';

if (typeof customElements !== 'undefined') {
  if (customElements.get(TAG)) console.warn(`<${TAG}> is already defined: this copy of the script is ignored.`);
  else customElements.define(TAG, PayCheckout);
}

export { PayCheckout };
