// signature_hash: the worked example of docs/api.md#signing, computed here on its own (node:crypto and a JCS written
// for this test), equal to what the SDK computes and what the gateway accepts; anything else is refused.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { signedText, signPaymentLinkBody, verifyPaymentLinkSignature } from '../../src/merchant/index.js';
import { canonicalize } from '../../src/merchant/jcs.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';
import { JSON_TYPE, send, sign } from '../helpers/merchant-api.js';

/** The code blocks of the "Signing" section of docs/api.md, in order: the body, its canonical form, the signature. */
function workedExample() {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = /^## Signing\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1];
  assert.ok(section, 'docs/api.md has a "## Signing" section');
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2]!.replace(/\n$/, '') }));
  const body = blocks.find((b) => b.lang === 'json')!;
  const [canonical, signature] = blocks.filter((b) => b.lang === 'text');
  assert.ok(body && canonical && signature, 'the section shows the body (json), its canonical form and the signature (text)');
  return { body: JSON.parse(body.text) as Record<string, unknown>, bodyText: body.text, canonical: canonical.text, signature: signature.text };
}

/** RFC 8785 written out for this test: members sorted by UTF-16 code units, ECMAScript serialization of strings and numbers. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const hmac = (text: string, secret: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');

describe('signature_hash, the worked example', () => {
  const example = workedExample();

  it('is HMAC-SHA256 with the client secret over the JCS text of the body without signature_hash, in base64', () => {
    const { signature_hash: _none, ...unsigned } = example.body;
    assert.equal(jcs(unsigned), example.canonical);
    assert.equal(hmac(example.canonical, SANDBOX_DEFAULTS.clientSecret), example.signature);
    assert.match(example.signature, /^[A-Za-z0-9+/]{43}=$/);
  });

  it('is what the SDK computes, with or without a signature_hash member already in the body', async () => {
    assert.equal(signedText(example.body), example.canonical);
    assert.equal(await signPaymentLinkBody(example.body, SANDBOX_DEFAULTS.clientSecret), example.signature);
    assert.equal(await signPaymentLinkBody({ ...example.body, signature_hash: 'anything' }, SANDBOX_DEFAULTS.clientSecret), example.signature);
  });

  it("canonicalizes as RFC 8785's own examples do (the library the SDK and the gateway share)", () => {
    // RFC 8785 3.2.2 (serialization of primitives) and 3.2.3 (member order by UTF-16 code units).
    const primitives = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    const expected = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    assert.equal(canonicalize(primitives), expected);
    assert.equal(jcs(primitives), expected);
    const order = JSON.parse('{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}');
    const sorted = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const inOrder = `{${sorted.map((k) => `${JSON.stringify(k)}:${JSON.stringify(order[k])}`).join(',')}}`;
    assert.equal(canonicalize(order), inOrder);
    assert.equal(jcs(order), inOrder);
  });

  it('does not depend on key order or white space', async () => {
    const shuffled = Object.fromEntries(Object.entries(example.body).reverse());
    const reread = JSON.parse(JSON.stringify(shuffled, null, '\t')) as Record<string, unknown>;
    assert.equal(await signPaymentLinkBody(reread, SANDBOX_DEFAULTS.clientSecret), example.signature);
    assert.ok(await verifyPaymentLinkSignature({ ...reread, signature_hash: example.signature }, SANDBOX_DEFAULTS.clientSecret));
  });
});

describe(`the gateway checks signature_hash (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  const post = (text: string) => send<Record<string, unknown>>(gw.url, 'POST', '/api/paymentLink', { body: text, headers: JSON_TYPE });
  const example = workedExample();
  const signedExample = { ...example.body, signature_hash: example.signature };

  it('accepts the worked example as the docs print it, and in any key order and spacing', async () => {
    assert.equal(gw.credentials.clientSecret, SANDBOX_DEFAULTS.clientSecret);
    assert.equal((await post(JSON.stringify(signedExample))).status, 201);
    await gw.reset();
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(signedExample).reverse()), null, 4);
    assert.equal((await post(reordered)).status, 201);
  });

  it('refuses the example signed with another secret', async () => {
    const forged = sign(example.body, 'not_the_client_secret');
    const answer = await post(JSON.stringify(forged));
    assert.equal(answer.status, 401);
    assert.match(String(answer.body.detail), /signature_hash does not match/);
  });

  it('refuses the example altered after signing, in any member', async () => {
    const alterations: Record<string, unknown>[] = [
      { amount: 360_001 },
      { description: 'Đơn hàng cà phê.' },
      { success_url: 'https://attacker.example/success' },
      { order_details: [{ id: 'sku-1', name: 'Cà phê hạt 500 g', price: 180_000, quantity: 2, image: 'https://shop.example/a.png' }] },
      { is_checkout_embed: true },
    ];
    for (const change of alterations) {
      const answer = await post(JSON.stringify({ ...signedExample, ...change }));
      assert.equal(answer.status, 401, JSON.stringify(change));
    }
    assert.equal((await gw.gateway.db.query('SELECT 1 FROM payment_links')).length, 0);
  });

  it('takes the signature only as its exact base64 text, not a variant that decodes to the same bytes', async () => {
    const variants = [
      `${example.signature}junk`,
      ` ${example.signature}`,
      example.signature.replace(/=$/, ''),
      example.signature.replaceAll('+', '-').replaceAll('/', '_'),
      Buffer.from(example.signature, 'base64').toString('hex'),
    ];
    for (const variant of variants) {
      assert.notEqual(variant, example.signature);
      assert.equal((await post(JSON.stringify({ ...example.body, signature_hash: variant }))).status, 401, variant);
    }
  });
});
