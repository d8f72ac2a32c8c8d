// Entry of the script-tag file (dist/pay-checkout.js): defines the tag and exports the same API as index.ts,
// so `import { PayCheckout } from 'https://<gateway>/pay-checkout.js'` works too.
import './define.js';

export * from './index.js';
