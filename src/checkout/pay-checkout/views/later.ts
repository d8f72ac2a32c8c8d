// The views that come once money has moved or the quote has run out (confirming, paid, paid late, expired, a late
// transfer) and the receipt they show. Not part of the script-tag file: a chunk served beside it (vite.config.ts), which the element
// loads in idle time once a payment is open, or at once when one of these views is needed. Nothing here is on the
// way to the customer's first QR.
export { confirmingView } from './confirming.js';
export { creditCard } from './credit.js';
export { expiredView } from './expired.js';
export { lateView } from './late.js';
export { paidLateView } from './paid-late.js';
export { paidView } from './paid.js';
export { remainder } from './remainder.js';
export { laterStyles } from '../later.styles.js';
