// signature_hash (DESIGN.md section 3): base64 HMAC-SHA256, keyed by the client secret, over the
// RFC 8785 (JCS) canonical JSON of the request body without its signature_hash member.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalize } from './jcs.js';

/** The exact text that is signed: the JCS form of the body without `signature_hash`. */
export function signedText(body: Record<string, unknown>): string {
  const { signature_hash: _omitted, ...rest } = body;
  const text = canonicalize(rest);
  if (text === undefined) throw new TypeError('the body cannot be canonicalized');
  return text;
}

export function signPaymentLinkBody(body: Record<string, unknown>, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(signedText(body), 'utf8').digest('base64');
}

/**
 * Constant-time check of `body.signature_hash` as the exact text: Node's base64 decoder skips white space and
 * whatever follows the padding, so comparing decoded bytes would also take the signature with junk appended.
 */
export function verifyPaymentLinkSignature(body: Record<string, unknown>, clientSecret: string): boolean {
  const given = body.signature_hash;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(signPaymentLinkBody(body, clientSecret), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
