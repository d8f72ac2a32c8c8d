// The demo's built pages and their assets, the merchant's behind the sign-in; and the success and failure pages'
// check of the redirect that brought the customer there, which needs no session (it changes nothing).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { verifyRedirect } from '../../src/merchant/index.js';
import { badRequest, readJsonObject } from '../gateway-internals.js';
import type { SandboxMerchant } from '../sandbox-merchant.js';
import type { SessionEnv, Sessions } from '../session.js';

/** The same policy as the hosted checkout page: nothing inline, nothing from another origin but https images. */
const DEMO_CSP = "default-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The one route under /demo/api/ that anyone may call. */
export const REDIRECT_CHECK = '/demo/api/redirects/verify';

/** The pages, and whether each is the merchant's (behind the sign-in) or anyone's. */
const PAGES: Record<string, { file: string; merchant: boolean }> = {
  '/': { file: 'index.html', merchant: true },
  '/portal': { file: 'portal.html', merchant: true },
  '/portal/orders/:order_id': { file: 'portal.html', merchant: true },
  '/webhooks': { file: 'webhooks.html', merchant: true },
  '/signin': { file: 'signin.html', merchant: false },
  '/wallet': { file: 'wallet.html', merchant: false },
  '/success': { file: 'success.html', merchant: false },
  '/failure': { file: 'failure.html', merchant: false },
};

/** `distDir`: the built pages (`vite build --config demo/vite.config.ts`). */
export function pageRoutes(distDir: string, sessions: Sessions, sandbox: SandboxMerchant): Hono<SessionEnv> {
  const app = new Hono<SessionEnv>();

  app.post(REDIRECT_CHECK, async (c) => {
    const { url } = await readJsonObject(c);
    if (typeof url !== 'string' || !URL.canParse(url)) throw badRequest('url must be the address the browser was sent to.');
    return c.json({ verified: (await verifyRedirect(url, sandbox.credentials.clientSecret)) !== undefined });
  });

  app.use(
    '/demo/assets/*',
    serveStatic({
      root: distDir,
      rewriteRequestPath: (path) => path.replace(/^\/demo/, ''),
      onFound: (_path, c) => void c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.use('/demo/*', serveStatic({ root: distDir, rewriteRequestPath: (path) => path.replace(/^\/demo/, '') }));

  for (const [path, { file, merchant }] of Object.entries(PAGES)) {
    app.get(path, (c) => {
      // The merchant's pages go to the sign-in first, which comes back here.
      if (merchant && !sessions.of(c)) return c.redirect(`/signin?next=${encodeURIComponent(c.req.path)}`, 303);
      return page(c, join(distDir, file));
    });
  }
  return app;
}

async function page(c: Context, file: string): Promise<Response> {
  let html: string;
  try {
    html = await readFile(file, 'utf8');
  } catch {
    return c.text('The demo is not built yet: run `npm run build` (npm start does it for you).', 503);
  }
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the pages' own POSTs, which
  // the portal could then not tell from another site's.
  return c.html(html, 200, { 'Content-Security-Policy': DEMO_CSP, 'Cache-Control': 'no-cache', 'Referrer-Policy': 'same-origin' });
}
