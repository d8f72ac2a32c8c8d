// Signed redirects (DESIGN.md section 5): the gateway adds payment_link_ref, merchant_order_id and status to the
// merchant's success_url or failure_url, and a signature over them, so the merchant's page can tell a real
// redirect from a typed one. signature = base64url HMAC-SHA256, keyed by the client secret, over the three
// parameters sorted by name and form-encoded.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const REDIRECT_PARAMS = ['merchant_order_id', 'payment_link_ref', 'status'] as const;
export type RedirectParams = Record<(typeof REDIRECT_PARAMS)[number], string>;

function redirectSignature(params: RedirectParams, clientSecret: string): string {
  const text = new URLSearchParams(REDIRECT_PARAMS.map((name) => [name, params[name]])).toString();
  return createHmac('sha256', clientSecret).update(text, 'utf8').digest('base64url');
}

/** The merchant's URL with the redirect parameters and their signature added to its query. */
export function signRedirect(url: string, params: RedirectParams, clientSecret: string): string {
  const target = new URL(url);
  for (const name of REDIRECT_PARAMS) target.searchParams.set(name, params[name]);
  target.searchParams.set('signature', redirectSignature(params, clientSecret));
  return target.toString();
}

/** The redirect's parameters when its signature is genuine, else undefined. Constant time. */
export function verifyRedirect(url: string | URL, clientSecret: string): RedirectParams | undefined {
  const query = new URL(url).searchParams;
  const params = {} as RedirectParams;
  for (const name of REDIRECT_PARAMS) {
    const values = query.getAll(name);
    if (values.length !== 1) return undefined;
    params[name] = values[0]!;
  }
  const given = Buffer.from(query.get('signature') ?? '', 'base64url');
  const expected = Buffer.from(redirectSignature(params, clientSecret), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? params : undefined;
}
