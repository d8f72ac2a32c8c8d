// A signed redirect is the merchant's URL with the redirect parameters and their signature in its query, the query
// serialized as URL.searchParams would leave it after setting each one in turn; whatever the merchant's URL
// already holds (other parameters, the same names, a fragment, characters to escape) is kept or replaced alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { base64url, hmacSha256 } from '../../src/merchant/crypto.js';
import { REDIRECT_PARAMS, signRedirect, verifyRedirect, type RedirectParams } from '../../src/merchant/redirect.js';

/** The definition, step by step on the URL's own searchParams. */
async function reference(url: string, params: RedirectParams, secret: string): Promise<string> {
  const target = new URL(url);
  for (const name of REDIRECT_PARAMS) target.searchParams.set(name, params[name]);
  const text = new URLSearchParams(REDIRECT_PARAMS.map((name) => [name, params[name]])).toString();
  target.searchParams.set('signature', base64url(await hmacSha256(secret, text)));
  return target.toString();
}

const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
const queryPart = fc.oneof(text, fc.constantFrom(...REDIRECT_PARAMS, 'signature', 'a=b', '&', '=', '+', '%', '%2', '%41', '#', ' '));
const merchantUrl = fc
  .tuple(fc.constantFrom('https', 'http'), fc.domain(), fc.webPath(), fc.option(fc.array(queryPart, { maxLength: 6 })), fc.option(text))
  .map(([scheme, host, path, query, fragment]) => `${scheme}://${host}${path}${query ? `?${query.join('')}` : ''}${fragment === null ? '' : `#${fragment}`}`)
  .filter((url) => URL.canParse(url));
const params = fc.record({ merchant_order_id: text, payment_link_ref: text, status: fc.constantFrom('paid', 'cancelled', 'expired') });

describe('signRedirect', () => {
  it('gives the URL the definition gives, and verifyRedirect takes it back', async () => {
    await fc.assert(
      fc.asyncProperty(merchantUrl, params, fc.string({ minLength: 1, maxLength: 40 }), async (url, p, secret) => {
        const signed = await signRedirect(url, p, secret);
        assert.equal(signed, await reference(url, p, secret));
        assert.deepEqual(await verifyRedirect(signed, secret), { ...p });
      }),
      { numRuns: 500 },
    );
  });
});
