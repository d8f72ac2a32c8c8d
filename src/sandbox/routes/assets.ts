// The browser side of the gateway: the script-tag file of <pay-checkout> at /pay-checkout.js, the chunks it loads on
// demand beside it at /pay-checkout/<chunk>.js, and the hosted checkout page at /checkout?ref=... (the
// `{checkout_url}` of every payment link), served under a strict CSP.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Context } from 'hono';
import * as z from 'zod/mini';
import { format } from '../../checkout/i18n/index.js';
import type { CheckoutView, Environment } from '../../contract/index.js';
import { builtFile } from '../http/built-file.js';
import { jsonForScript } from '../http/inline-json.js';
import { asProblem, ProblemError, problemResponse } from '../http/problem.js';
import { summaryShadowRoot, SUMMARY_CSS_HASH } from '../pages/checkout-summary.js';
import { pageLanguage, type PageLanguage } from '../pages/page.js';
import { ELEMENT_CHUNKS, ELEMENT_SCRIPT as SCRIPT, ELEMENT_SOURCE_MAP as SOURCE_MAP } from '../paths.js';
import type { Services } from '../services.js';
import { builtFileAnswers, media, route, type RouteGroup } from './route.js';

// SCRIPT is built by `npm run build` (vite.config.ts); a rebuild shows without a restart (http/built-file.ts). Its source
// map is fetched by browsers only when the developer tools are open.

/** A chunk's file name, or its source map's: the build names them `<name>-<hash>.js` (nothing else is served from there). */
const CHUNK_FILE = /^[\w-]+\.js(\.map)?$/;

/**
 * The chunks beside the script. Their names change with their content, so a browser keeps each for good; a script
 * cached for its five minutes still finds the chunks it names until the next build.
 */
function chunkFiles(): (c: Context) => Promise<Response> {
  const handlers = new Map<string, (c: Context) => Promise<Response>>();
  return async (c) => {
    const name = c.req.param('chunk') ?? '';
    const file = new URL(name, ELEMENT_CHUNKS);
    if (!CHUNK_FILE.test(name) || !existsSync(file)) return problemResponse(c, new ProblemError(404, `No chunk ${name} beside the script.`));
    let handler = handlers.get(name);
    if (!handler) {
      const type = name.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8';
      handler = builtFile(file, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' });
      handlers.set(name, handler);
    }
    return handler(c);
  };
}

/**
 * The hosted page's own few rules, inline (a stylesheet would be one more request before the checkout shows). The
 * sandbox's tester panel sits below the checkout, as wide as a phone's screen at most.
 */
const PAGE_CSS = 'html{color-scheme:light dark}body{margin:0}tester-panel{display:block;max-width:44rem;margin:1.5rem auto 2rem;padding:0 1rem}';

/**
 * What the hosted page may do: its own script, the gateway's API and stream, images from anywhere on https, and
 * the inline styles (the page's above, the order's first paint in pages/checkout-summary.ts), by their hashes. The view it carries is a JSON data block, which no policy governs. No
 * page may frame it (a site that did could lay its own buttons over the QR and the amount): a merchant's page
 * embeds the element itself, never this page (docs/security.md).
 */
export const CHECKOUT_CSP = `default-src 'self'; img-src 'self' data: https:; connect-src 'self'; style-src 'self' 'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}' ${SUMMARY_CSS_HASH}; frame-ancestors 'none'`;

function checkoutPage(acceptLanguage: string | undefined, view: string | undefined, environment: Environment): string {
  const parsed = view ? (JSON.parse(view) as CheckoutView) : undefined;
  // The language the element picks first (pay-checkout.ts, #locale): the link's billing address, else the browser's.
  const lang: PageLanguage = pageLanguage(undefined, parsed?.billing_details?.billing_address?.locale, acceptLanguage);
  const title = format(lang, 'checkout');
  // No inline script: the CSP allows none. <pay-checkout> reads ?ref= from the page URL, and shows the full page
  // layout whatever the link's is_checkout_embed says: this page is the hosted checkout. The link's view goes in
  // the element as a JSON data block, escaped (http/inline-json.ts), so the order paints without a request; an
  // unknown ref has none, and the element fetches and shows why. Before the script has run (or without JavaScript),
  // the order shows from the HTML: a declarative shadow root the element takes over (pages/checkout-summary.ts). Below the checkout, outside its card, the sandbox's
  // tester panel (/sandbox/tester-panel.js), which goes with the /sandbox routes it calls (docs/guide.md, "What a tester
  // does"): a live gateway serves neither, and its page never asks for the panel.
  const data = view ? `<script type="application/json">${jsonForScript(view)}</script>` : '';
  const sandbox = environment === 'sandbox';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${PAGE_CSS}</style>
<script type="module" src="/pay-checkout.js"></script>
${sandbox ? '<script type="module" src="/sandbox/tester-panel.js"></script>\n' : ''}</head>
<body>
<main><pay-checkout embedded="false">${parsed ? summaryShadowRoot(parsed, lang) : ''}${data}</pay-checkout></main>
${sandbox ? '<tester-panel></tester-panel>\n' : ''}</body>
</html>
`;
}

/** The link's view for the page, as JSON, or none when the gateway would answer its GET with a problem (an unknown ref). */
async function viewForPage(checkout: Services['customerCheckout'], ref: string | undefined): Promise<string | undefined> {
  if (!ref) return undefined;
  try {
    return (await checkout.linkView(ref)).toString();
  } catch (error) {
    if (asProblem(error)) return undefined;
    throw error;
  }
}

export const assetRoutes: RouteGroup<Pick<Services, 'customerCheckout' | 'config'>> = {
  routes: [
    // Gzipped to the browsers that take it: the budget of the script-tag file counts what travels.
    route(
      'get',
      '/pay-checkout.js',
      {
        tag: 'Assets',
        summary: 'The <pay-checkout> element, one self-contained ES module',
        ...builtFileAnswers('text/javascript', 'dist/pay-checkout.js; gzip when accepted; an ETag; CORS open.'),
      },
      () =>
        builtFile(SCRIPT, {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Access-Control-Allow-Origin': '*',
          'Cache-Control': 'public, max-age=300',
          'X-Content-Type-Options': 'nosniff',
        }),
    ),
    route(
      'get',
      '/pay-checkout.js.map',
      {
        tag: 'Assets',
        summary: "The element's source map",
        ...builtFileAnswers('application/json', 'dist/pay-checkout.js.map, sources inside; an ETag.'),
      },
      () => builtFile(SOURCE_MAP, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' }),
    ),
    route(
      'get',
      '/pay-checkout/{chunk}',
      {
        tag: 'Assets',
        summary: 'A chunk the element loads on demand (a later view, the browser wallets), or its source map',
        ...builtFileAnswers('text/javascript', 'dist/pay-checkout/<chunk>; gzip when accepted; an ETag; CORS open; immutable (the name carries a hash).', [404]),
      },
      chunkFiles,
    ),
    route(
      'get',
      '/checkout',
      {
        tag: 'Assets',
        summary: 'The hosted checkout page (`{checkout_url}`): `?ref=<payment_link_ref>`',
        query: z.object({ ref: z.optional(z.string()) }),
        ok: { 200: media('text/html', 'Served under a strict Content-Security-Policy; the link’s view inside, so the order shows without a request.') },
      },
      ({ customerCheckout: checkout, config }) =>
        async (c) =>
          c.html(checkoutPage(c.req.header('Accept-Language'), await viewForPage(checkout, c.req.query('ref')), config.environment), 200, {
            'Content-Security-Policy': CHECKOUT_CSP,
            // The ref in the URL is the link's bearer secret: the pages the customer goes on to never see it.
            'Referrer-Policy': 'no-referrer',
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
            // frame-ancestors for the browsers that predate it.
            'X-Frame-Options': 'DENY',
            Vary: 'Accept-Language',
          }),
    ),
  ],
};
