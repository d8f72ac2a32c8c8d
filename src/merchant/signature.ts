// signature_hash (docs/api.md, "Signing"): base64 HMAC-SHA256, keyed by the client secret, over the
// RFC 8785 (JCS) canonical JSON of the request body without its signature_hash member.
import { base64, equalText, hmacSha256 } from './crypto.js';
import { canonicalize } from './jcs.js';

/** The exact text that is signed: the JCS form of the body without `signature_hash`. */
export function signedText(body: Record<string, unknown>): string {
  const { signature_hash: _omitted, ...rest } = body;
  const text = canonicalize(rest);
  if (text === undefined) throw new TypeError('the body cannot be canonicalized');
  return text;
}

export async function signPaymentLinkBody(body: Record<string, unknown>, clientSecret: string): Promise<string> {
  return base64(await hmacSha256(clientSecret, signedText(body)));
}

/**
 * Constant-time check of `body.signature_hash` as the exact text: a decoder that skips white space or what follows
 * the padding would also take the signature with junk appended.
 */
export async function verifyPaymentLinkSignature(body: Record<string, unknown>, clientSecret: string): Promise<boolean> {
  const given = body.signature_hash;
  if (typeof given !== 'string') return false;
  return equalText(given, await signPaymentLinkBody(body, clientSecret));
}
