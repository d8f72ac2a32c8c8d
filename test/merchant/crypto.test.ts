// The SDK signs with node:crypto where the runtime lends it and with WebCrypto elsewhere (edge workers, Deno): both
// must give the same bytes for every secret and message, lone surrogates included (each encodes them as U+FFFD).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hex, hmacSha256, webCryptoHmacSha256 } from '../../src/merchant/crypto.js';

describe('HMAC-SHA256', () => {
  it('gives RFC 4231 test case 2 on both paths', async () => {
    const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    assert.equal(hex(await hmacSha256('Jefe', 'what do ya want for nothing?')), expected);
    assert.equal(hex(await webCryptoHmacSha256('Jefe', 'what do ya want for nothing?')), expected);
  });

  it('gives the same bytes through node:crypto and WebCrypto', async () => {
    const text = (minLength: number) =>
      fc.oneof(fc.string({ unit: 'grapheme', minLength, maxLength: 100 }), fc.string({ unit: 'binary', minLength, maxLength: 100 }));
    await fc.assert(
      fc.asyncProperty(text(1), text(0), async (secret, message) => {
        assert.deepEqual(await hmacSha256(secret, message), await webCryptoHmacSha256(secret, message));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an empty secret on both paths', async () => {
    await assert.rejects(hmacSha256('', 'message'));
    await assert.rejects(webCryptoHmacSha256('', 'message'));
  });
});
