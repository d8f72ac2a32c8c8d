// `npm start`: the sandbox gateway with the demo mounted, on one port (README, "Configuration").
// Unlike `npm run gateway`, data persists in .data/pglite unless PGLITE_DIR or DATABASE_URL say otherwise, and
// webhook endpoints on the loopback host are taken (the demo's own receiver) unless SANDBOX_ALLOW_LOCAL_WEBHOOKS=0.
import { fileURLToPath } from 'node:url';
import { MerchantClient } from '../src/merchant/client.js';
import { closeOnSignals, startBanner } from '../src/sandbox/banner.js';
import { loadConfig } from '../src/sandbox/config.js';
import { startGateway } from '../src/sandbox/server.js';
import { demoRoutes } from './server.js';

const config = loadConfig({
  SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1',
  ...process.env,
  PGLITE_DIR: process.env.PGLITE_DIR ?? (process.env.DATABASE_URL ? '' : '.data/pglite'),
});
// SANDBOX_CHAIN=anvil: Ethereum on a development node, started here (src/sandbox/chains/evm/dev-chain.ts).
const dev = config.sandboxChain === 'anvil' ? await (await import('../src/sandbox/chains/evm/dev-chain.js')).startDevChain(config) : undefined;
const running = await startGateway(dev?.config ?? config, {
  mount(app) {
    const baseUrl = `http://localhost:${config.port}`;
    // The demo's server side and the gateway share this process and port, so the SDK's requests go straight to the app.
    const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
    app.route(
      '/',
      demoRoutes({
        sandbox: config.sandboxMerchant,
        clientFor: (credentials) => new MerchantClient({ baseUrl, ...credentials, fetch: inProcess }),
        distDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
      }),
    );
  },
});
const { url } = running;
console.log(
  startBanner(running, 'pay-checkout demo and sandbox gateway', {
    phonePath: '/wallet',
    extra: [
      `Merchant portal: ${url}/portal and ${url}/webhooks (sign in with the ClientId and Client Secret above,`,
      '  or, on this machine, with the "Sign in as the sandbox merchant" button)',
      '',
      ...(dev ? ['', ...dev.banner] : []),
      '',
      `Open ${url}/`,
    ],
  }),
);
closeOnSignals(running, dev?.node.stop);
