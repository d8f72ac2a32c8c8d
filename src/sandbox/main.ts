// `npm run gateway`: the sandbox gateway alone, configured by environment (README, "Configuration").
import { loadConfig } from './config.js';
import { startGateway } from './gateway.js';

const config = loadConfig();
const running = await startGateway(config);
const { clientId, clientSecret, merchantKey } = config.sandboxMerchant;
console.log(`pay-checkout sandbox gateway on ${running.url} (storage: ${running.gateway.db.engine}${config.dataDir ? `, ${config.dataDir}` : ''})

Sandbox credentials:
  ClientId       ${clientId}
  Client Secret  ${clientSecret}
  Merchant Key   ${merchantKey}
  Access Token   POST ${running.url}/api/v2/oauth/token with the two above
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
