// The customer's receipt (pages/receipt.ts) at a stable address beside the hosted checkout page: the link's
// `receipt_url`. The ref in it is the link's bearer secret, as in `{checkout_url}?ref=`: nothing else opens it.
import * as z from 'zod/mini';
import { asProblem } from '../http/problem.js';
import { missingReceiptPage, RECEIPT_CSP, receiptLanguage, receiptPage } from '../pages/receipt.js';
import type { Services } from '../services.js';
import { media, route, type RouteGroup } from './route.js';

const HEADERS = {
  'Content-Security-Policy': RECEIPT_CSP,
  // The explorer links must not carry the ref away in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // frame-ancestors 'none' (the CSP) for the browsers that predate it.
  'X-Frame-Options': 'DENY',
  Vary: 'Accept-Language',
};

export const receiptRoutes: RouteGroup<Pick<Services, 'customerCheckout'>> = {
  routes: [
    route(
      'get',
      '/receipt',
      {
        tag: 'Assets',
        summary: "The customer's receipt: `?ref=<payment_link_ref>`, and `lang=vi|en` (else the link's locale, else the browser's)",
        query: z.object({ ref: z.optional(z.string()), lang: z.optional(z.string()) }),
        ok: { 200: media('text/html', 'What was sent and its transactions, printable, under a Content-Security-Policy that allows no script.') },
        errors: [404],
      },
      ({ customerCheckout }) =>
        async (c) => {
          const { ref, lang } = c.req.query();
          const acceptLanguage = c.req.header('Accept-Language');
          try {
            const { view, payments } = await customerCheckout.receipt(ref ?? '');
            return c.html(receiptPage(receiptLanguage(lang, view, acceptLanguage), view, payments), 200, HEADERS);
          } catch (error) {
            const problem = asProblem(error);
            if (problem?.status !== 404) throw error;
            return c.html(missingReceiptPage(receiptLanguage(lang, undefined, acceptLanguage)), 404, HEADERS);
          }
        },
    ),
  ],
};
