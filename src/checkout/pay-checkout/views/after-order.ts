// The views that come after the order (payment, confirming, underpaid, paid, paid late, expired) and the QR encoder
// they draw with. pay-checkout.ts imports this module dynamically once the first view has painted, so nothing here
// (qrcode above all) is loaded or run before the order summary shows. In the script-tag file it is inlined and run
// on first use (no second request); a bundler that bundles the element makes it a chunk of its own.
export { confirmingView } from './confirming.js';
export { expiredView } from './expired.js';
export { paidLateView } from './paid-late.js';
export { paidView } from './paid.js';
export { paymentView } from './payment.js';
