// `npm start`: the sandbox gateway with the demo mounted, on one port (README, "Configuration").
// Unlike `npm run gateway`, data persists in .data/pglite unless PGLITE_DIR or DATABASE_URL say otherwise, and
// webhook endpoints on the loopback host are taken (the demo's own receiver) unless SANDBOX_ALLOW_LOCAL_WEBHOOKS=0, and
// the portal offers "Sign in as the sandbox merchant" without its secret unless a secret of one's own is set
// (SANDBOX_CLIENT_SECRET) or SANDBOX_SECRETLESS_SIGN_IN=0.
import { MerchantClient } from '../src/merchant/index.js';
import { runGateway } from '../src/sandbox/start.js';
import { DEMO_DIST } from './gateway-internals.js';
import { demoRoutes } from './server.js';

// The demo is the sandbox's: its shop, wallet and portal sign in as the sandbox merchant, which live has none of.
if (process.env.GATEWAY_ENV === 'live') {
  console.error('pay-checkout demo cannot start: GATEWAY_ENV=live; the demo runs on the sandbox only, and `npm run gateway` runs the live gateway alone');
  process.exit(1);
}

await runGateway({
  title: 'pay-checkout demo and sandbox gateway',
  env: {
    SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1',
    SANDBOX_SECRETLESS_SIGN_IN: process.env.SANDBOX_CLIENT_SECRET ? '0' : '1',
    ...process.env,
    PGLITE_DIR: process.env.PGLITE_DIR ?? (process.env.DATABASE_URL ? '' : '.data/pglite'),
  },
  mount(app, { config, clientSignIn }) {
    const baseUrl = `http://localhost:${config.port}`;
    // The demo's server side and the gateway share this process and port, so the SDK's requests go straight to the app.
    const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
    app.route(
      '/',
      demoRoutes({
        environment: config.environment,
        sandbox: config.sandboxMerchant,
        secretlessSignIn: config.secretlessSignIn,
        countSignIn: (clientId) => clientSignIn.countSignIn(clientId),
        clientFor: (credentials) => new MerchantClient({ baseUrl, ...credentials, fetch: inProcess }),
        distDir: DEMO_DIST,
      }),
    );
  },
  banner: ({ url }) => ({
    phonePath: '/wallet',
    extra: [
      `Merchant portal: ${url}/portal and ${url}/webhooks (sign in with the ClientId and Client Secret above,`,
      '  or, on this machine, with the "Sign in as the sandbox merchant" button)',
      '',
      `Open ${url}/`,
    ],
  }),
});
