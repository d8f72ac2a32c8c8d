// Registers <pay-checkout>. A page that loads the script twice (or two versions of it) gets a warning, not an exception.
import { CSSResult } from 'lit';
import { whenIdle } from './idle.js';
import { PayCheckout } from './pay-checkout/pay-checkout.js';

export const TAG = 'pay-checkout';

if (typeof customElements !== 'undefined') {
  if (customElements.get(TAG)) console.warn(`<${TAG}> is already defined: this copy of the script is ignored.`);
  else {
    customElements.define(TAG, PayCheckout);
    // The stylesheet is built (its CSS parsed) in idle time: a page that inserts the element later (a shop's page,
    // once it has the link) then only adopts it at insertion. Lit builds it on first read, and keeps it.
    whenIdle(() => PayCheckout.elementStyles.forEach((style) => style instanceof CSSResult && style.styleSheet));
  }
}

export { PayCheckout };
