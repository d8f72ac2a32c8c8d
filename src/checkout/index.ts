// The element's public API for bundlers. Importing it defines nothing: import './define.js' (or
// 'pay-checkout/define') to register the tag, or call customElements.define with your own name.
export { LOADING_DELAY_MS, PayCheckout, REDIRECT_SECONDS, type CheckoutViewName } from './pay-checkout/pay-checkout.js';
export * from './events.js';
export { CheckoutApiError, type CheckoutErrorCode } from './api.js';
export type { Locale } from './i18n/index.js';
export type { CheckoutView, Payment, PaymentStatus, CheckoutAsset, CheckoutMethod, Customer } from '../contract/checkout.js';
