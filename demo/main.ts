// `npm start`: the sandbox gateway with the demo mounted, on one port (README, "Configuration").
// Unlike `npm run gateway`, data persists in .data/pglite unless PGLITE_DIR or DATABASE_URL say otherwise.
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MerchantClient } from '../src/merchant/client.js';
import { closeOnSignals, startBanner } from '../src/sandbox/banner.js';
import { loadConfig } from '../src/sandbox/config.js';
import { startGateway } from '../src/sandbox/gateway.js';
import { demoRoutes } from './server.js';

const config = loadConfig({ ...process.env, PGLITE_DIR: process.env.PGLITE_DIR ?? (process.env.DATABASE_URL ? '' : '.data/pglite') });
const { clientId, clientSecret, merchantKey } = config.sandboxMerchant;
const running = await startGateway(config, {
  mount(app) {
    const baseUrl = `http://localhost:${config.port}`;
    // The demo's server side and the gateway share this process and port, so the SDK's requests go straight to the app.
    const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
    app.route(
      '/',
      demoRoutes({
        client: new MerchantClient({ baseUrl, clientId, clientSecret, merchantKey, fetch: inProcess }),
        clientSecret,
        distDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
      }),
    );
  },
});
const { url } = running;
const port = new URL(url).port;
// A phone on the same network reaches the wallet page at one of these.
const lan = Object.values(networkInterfaces())
  .flat()
  .filter((i) => i && i.family === 'IPv4' && !i.internal)
  .map((i) => `http://${i!.address}:${port}/wallet`);

console.log(
  startBanner(running, 'pay-checkout demo and sandbox gateway', [
    `Test wallet on a phone: ${lan.join(', ') || `${url}/wallet`}`,
    `Merchant portal: ${url}/portal`,
    `Webhooks: ${url}/webhooks`,
    '',
    `Open ${url}/`,
  ]),
);
closeOnSignals(running);
