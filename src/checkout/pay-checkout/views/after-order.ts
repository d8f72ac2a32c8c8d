// The payment view and the QR encoder it draws with. pay-checkout.ts asks for this module by a dynamic import, in
// idle time once the order is on screen. The script-tag file carries it as its own (vite.config.ts turns that import
// into a static one: everything up to the QR is one request); a bundler of dist/lib/ makes it a chunk of its own.
import { drawQr } from '../../qr.js';

export { paymentView } from './payment.js';

/**
 * Encodes and draws one QR off screen, in idle time before the customer pays: the encoder's first run (its
 * tables, the engine's compilation of its loops) and the first 2D canvas are then not paid between the Pay click
 * and the QR.
 */
export function warmUp(): void {
  drawQr(document.createElement('canvas'), 'pay-checkout');
}
