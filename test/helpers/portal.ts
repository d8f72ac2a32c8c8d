// A test gateway with the merchant portal's routes mounted (demo/server.ts), its merchant client calling the gateway
// in process, as `npm start` runs them (demo/main.ts).
import { demoRoutes } from '../../demo/server.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';

export function startPortal(options: Pick<Parameters<typeof demoRoutes>[0], 'secretlessSignIn' | 'sessions'>, gateway: Omit<TestGatewayOptions, 'mount'> = {}): Promise<TestGateway> {
  return startTestGateway({
    ...gateway,
    mount(app, services) {
      const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
      app.route(
        '/',
        demoRoutes({
          environment: services.config.environment,
          sandbox: services.config.sandboxMerchant,
          clientFor: (credentials) => new MerchantClient({ baseUrl: 'http://gateway.test', ...credentials, fetch: inProcess }),
          distDir: '/nonexistent',
          countSignIn: (clientId) => services.clientSignIn.countSignIn(clientId),
          ...options,
        }),
      );
    },
  });
}
