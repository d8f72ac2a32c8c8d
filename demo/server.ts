// The demo's server side, composed here from its route modules (demo/routes/). It plays the merchant's server: it holds
// the sandbox credentials and talks to the gateway only through the merchant SDK, so no secret ever reaches a browser.
// It also serves the built pages. The portal (the builder, transactions, webhooks) is the merchant's: its pages and API
// need a session (demo/session.ts), and act as the merchant signed in.
import { Hono } from 'hono';
import { except } from 'hono/combine';
import { gatewayErrors } from './routes/errors.js';
import { linkRoutes } from './routes/links.js';
import { orderRoutes } from './routes/orders.js';
import { pageRoutes, REDIRECT_CHECK } from './routes/pages.js';
import { receiverRoutes } from './routes/receiver.js';
import { signInRoutes, type SignInOptions } from './routes/sign-in.js';
import { testerRoutes } from './routes/tester.js';
import { webhookRoutes } from './routes/webhooks.js';
import { SandboxMerchant, type Credentials } from './sandbox-merchant.js';
import { ownPagesOnly, requireSession, Sessions, type SessionEnv } from './session.js';

export interface DemoOptions extends SignInOptions {
  /** The sandbox merchant: the demo signs its links, checks its redirects and its webhooks with these. */
  sandbox: Credentials;
  /** The built pages (`vite build --config demo/vite.config.ts`). */
  distDir: string;
  sessions?: Sessions;
}

export function demoRoutes(options: DemoOptions): Hono<SessionEnv> {
  const sessions = options.sessions ?? new Sessions(options.environment);
  const sandbox = new SandboxMerchant(options.sandbox, options.clientFor);
  const app = new Hono<SessionEnv>();
  app.onError(gatewayErrors(sessions));
  // Before the routes it guards, as Hono runs what matches in the order it was added.
  app.use('/demo/api/*', except([REDIRECT_CHECK], requireSession(sessions), ownPagesOnly()));
  app.route('/', signInRoutes(options, sessions, sandbox));
  for (const routes of [linkRoutes(), orderRoutes(), testerRoutes(), webhookRoutes(), receiverRoutes(sandbox)]) app.route('/', routes);
  // Last: its assets are a catch-all under /demo/.
  app.route('/', pageRoutes(options.distDir, sessions, sandbox));
  return app;
}
