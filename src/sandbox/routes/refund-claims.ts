// The customer's refund claim (pages/refund-claim.ts) on the gateway's public origin: the refund record's claim_url.
// The token in it is the refund's bearer secret, as the ref is a link's: nothing else opens it. The form posts back
// here (the page's CSP allows `form-action 'self'` and nothing else); a refused claim shows the page again, 422,
// with each bad field named.
import * as z from 'zod/mini';
import type { Context } from 'hono';
import { GatewayError } from '../errors.js';
import { asProblem } from '../http/problem.js';
import { CLAIM_CSP, CLAIM_LANGUAGES, claimPage, missingClaimPage } from '../pages/refund-claim.js';
import { pageLanguage } from '../pages/page.js';
import type { RefundClaim } from '../services/orders/refund-claims.js';
import type { Services } from '../services.js';
import { media, route, type RouteGroup } from './route.js';

const HEADERS = {
  'Content-Security-Policy': CLAIM_CSP,
  // The page's address carries the token: no Referer takes it anywhere.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // frame-ancestors 'none' (the CSP) for the browsers that predate it.
  'X-Frame-Options': 'DENY',
  Vary: 'Accept-Language',
};

const QUERY = z.object({ token: z.optional(z.string()), lang: z.optional(z.string()) });
const FORM = z.object({ address: z.optional(z.string()), confirm: z.optional(z.literal('yes')) });
/** Longer than any address of any network, by far. */
const MAX_FORM_BYTES = 2_000;

const language = (c: Context, claim?: RefundClaim) => pageLanguage(c.req.query('lang'), claim?.refund.locale, c.req.header('Accept-Language'), CLAIM_LANGUAGES);

/** An unknown token: the page that says so. Any other failure goes on to problem+json. */
async function missing(c: Context, error: unknown): Promise<Response> {
  if (asProblem(error)?.status !== 404) throw error;
  return c.html(missingClaimPage(language(c)), 404, HEADERS);
}

export const refundClaimRoutes: RouteGroup<Pick<Services, 'refundClaims'>> = {
  routes: [
    route(
      'get',
      '/refunds/claim',
      {
        tag: 'Assets',
        summary: "The customer's refund claim page: `?token=` of the refund's claim_url, and `lang=vi|en` (else the link's locale, else the browser's)",
        query: QUERY,
        ok: { 200: media('text/html', 'What comes back and a form for the address, or where the payout stands; no script.') },
        errors: [404],
      },
      ({ refundClaims }) =>
        async (c) => {
          const token = c.req.query('token') ?? '';
          try {
            const claim = await refundClaims.read(token);
            return c.html(claimPage(language(c, claim), claim, token), 200, HEADERS);
          } catch (error) {
            return missing(c, error);
          }
        },
    ),
    route(
      'post',
      '/refunds/claim',
      {
        tag: 'Assets',
        summary: 'Claims a refund: the form of the claim page (`address`, `confirm=yes`), to `?token=` of its claim_url',
        query: QUERY,
        body: { form: FORM },
        ok: { 200: media('text/html', 'The claim page, showing the payout under way.') },
        errors: [404, 409, 410, 422],
      },
      ({ refundClaims }) =>
        async (c) => {
          const token = c.req.query('token') ?? '';
          const text = await c.req.text();
          const form = new URLSearchParams(text.length <= MAX_FORM_BYTES ? text : '');
          const fields = { address: form.get('address') ?? undefined, confirm: form.get('confirm') ?? undefined };
          try {
            const claim = await refundClaims.claim(token, fields);
            return c.html(claimPage(language(c, claim), claim, token), 200, HEADERS);
          } catch (error) {
            // Refused (422), claimed already (409) or over (410): the page again, as the refund stands, saying why.
            const status = asProblem(error)?.status;
            if (status !== 409 && status !== 410 && status !== 422) return missing(c, error);
            const claim = await refundClaims.read(token);
            const errors = error instanceof GatewayError ? (error.errors ?? []) : [];
            return c.html(claimPage(language(c, claim), claim, token, { address: fields.address ?? '', errors }), status, HEADERS);
          }
        },
    ),
  ],
};
