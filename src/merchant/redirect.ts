// Signed redirects (README, "How to know an order is paid"): the gateway adds payment_link_ref, merchant_order_id and status to the
// merchant's success_url or failure_url, and a signature over them, so the merchant's page can tell a real
// redirect from a typed one. signature = base64url HMAC-SHA256, keyed by the client secret, over the three
// parameters sorted by name and form-encoded.
import { base64url, equalText, hmacSha256 } from './crypto.js';

export const REDIRECT_PARAMS = ['merchant_order_id', 'payment_link_ref', 'status'] as const;
export type RedirectParams = Record<(typeof REDIRECT_PARAMS)[number], string>;

async function redirectSignature(params: RedirectParams, clientSecret: string): Promise<string> {
  const text = new URLSearchParams(REDIRECT_PARAMS.map((name) => [name, params[name]])).toString();
  return base64url(await hmacSha256(clientSecret, text));
}

/** The merchant's URL with the redirect parameters and their signature added to its query. */
export async function signRedirect(url: string, params: RedirectParams, clientSecret: string): Promise<string> {
  const target = new URL(url);
  // Set on a detached copy and written back once: each set on `target.searchParams` re-serializes the whole URL.
  const query = new URLSearchParams(target.search);
  for (const name of REDIRECT_PARAMS) query.set(name, params[name]);
  query.set('signature', await redirectSignature(params, clientSecret));
  target.search = query.toString();
  return target.toString();
}

/** The redirect's parameters when its signature is genuine, else undefined. Constant time. */
export async function verifyRedirect(url: string | URL, clientSecret: string): Promise<RedirectParams | undefined> {
  const query = new URL(url).searchParams;
  const params = {} as RedirectParams;
  for (const name of REDIRECT_PARAMS) {
    const values = query.getAll(name);
    if (values.length !== 1) return undefined;
    params[name] = values[0]!;
  }
  return equalText(query.get('signature') ?? '', await redirectSignature(params, clientSecret)) ? params : undefined;
}
