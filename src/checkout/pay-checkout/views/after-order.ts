// The views that come after the order (payment, confirming, underpaid, paid, paid late, expired) and the QR encoder
// they draw with. pay-checkout.ts imports this module dynamically in idle time once the order is on screen, so
// nothing here (the QR encoder above all) is loaded or run before the order summary shows. In the script-tag file
// it is inlined and run on first use (no second request); a bundler that bundles the element makes it a chunk of
// its own.
import { drawQr } from '../../qr.js';

export { confirmingView } from './confirming.js';
export { expiredView } from './expired.js';
export { paidLateView } from './paid-late.js';
export { paidView } from './paid.js';
export { paymentView } from './payment.js';

/**
 * Encodes and draws one QR off screen, in idle time before the customer pays: the encoder's first run (its
 * tables, the engine's compilation of its loops) and the first 2D canvas are then not paid between the Pay click
 * and the QR.
 */
export function warmUp(): void {
  drawQr(document.createElement('canvas'), 'pay-checkout');
}
