// `npm run gateway` and the image's start (`node dist/gateway/main.js`): the sandbox gateway alone, configured by
// environment (README, "Configuration"; docs/operations.md).
import { runGateway } from './start.js';

await runGateway({ title: 'pay-checkout sandbox gateway' });
