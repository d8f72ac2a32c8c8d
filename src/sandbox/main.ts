// `npm run gateway` and the image's start (`node dist/gateway/main.js`): the gateway alone, configured by environment
// (README, "Configuration"; docs/operations.md): the sandbox, or with GATEWAY_ENV=live the live gateway ("Going live").
import { runGateway } from './start.js';

await runGateway({ title: process.env.GATEWAY_ENV === 'live' ? 'pay-checkout gateway' : 'pay-checkout sandbox gateway' });
