// The built element as the gateway serves it: compressed for browsers that take gzip, byte for byte the built
// file, revalidated by its ETag, loadable from any origin; the hosted page under its strict CSP. Builds the script
// first when it is missing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { useBuilt, useTestGateway } from '../helpers/fixture.js';
import { sampleLink } from '../helpers/gateway.js';

describe('the element and the hosted page, served by the gateway', () => {
  const bundle = useBuilt('pay-checkout.js');
  const gw = useTestGateway();

  it('sends /pay-checkout.js gzipped to a browser that accepts it, and it is the built file', async () => {
    // fetch would decompress on its own: node:http shows the bytes as they travel.
    const { request } = await import('node:http');
    const answer = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(`${gw.url}/pay-checkout.js`, { headers: { 'Accept-Encoding': 'gzip, br' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.match(String(answer.headers['content-type']), /^text\/javascript/);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    const built = readFileSync(bundle);
    assert.ok(answer.body.length < built.length / 2, `${answer.body.length} B on the wire for ${built.length} B`);
    assert.ok(gunzipSync(answer.body).equals(built));
    // A browser whose cached copy is stale asks again with the ETag, and gets no bytes while nothing changed.
    const again = await fetch(`${gw.url}/pay-checkout.js`, { headers: { 'If-None-Match': String(answer.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('serves the hosted page with a strict CSP and the element in hosted layout', async () => {
    const response = await fetch(`${gw.url}/checkout?ref=pl_any`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    // Two inline stylesheets: the page's own, and the element's in the order's first paint (pages/checkout-summary.ts).
    assert.match(csp, /^default-src 'self'; img-src 'self' data: https:; connect-src 'self'; style-src 'self' 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'; frame-ancestors 'none'$/);
    const page = await response.text();
    assert.match(page, /<script type="module" src="\/pay-checkout.js"><\/script>/);
    assert.match(page, /<pay-checkout embedded="false"><\/pay-checkout>/, 'an unknown ref: no view inside, the element fetches and says why');
    // The sandbox's tester panel, a script of its own, beside the element and outside its card.
    assert.match(page, /<script type="module" src="\/sandbox\/tester-panel.js"><\/script>/);
    assert.match(page, /<\/pay-checkout><\/main>\s*<tester-panel><\/tester-panel>/);
    assert.equal((await fetch(`${gw.url}/sandbox/tester-panel.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.doesNotMatch(page, /<script>|style=|<link/, 'no inline script or style attribute, no stylesheet to fetch');
    // The one inline style is the one the CSP allows by its hash.
    const style = /<style>(.*?)<\/style>/s.exec(page)?.[1] ?? '';
    assert.ok(csp.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`), 'the inline style matches its hash');
  });

  it('lets no site frame the hosted page (a merchant embeds the element, not the page)', async () => {
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    for (const path of ['/checkout?ref=pl_any', `/checkout?ref=${ref}`]) {
      const { headers } = await fetch(`${gw.url}${path}`);
      assert.ok((headers.get('content-security-policy') ?? '').split(/;\s*/).includes("frame-ancestors 'none'"), path);
      assert.equal(headers.get('x-frame-options'), 'DENY', path);
    }
  });

  it("carries the link's view inside the element, escaped so merchant text stays data", async () => {
    const name = 'Shop </script><script>alert(1)</script><!--';
    const description = 'Line\u2028two\u2029three & </SCRIPT >';
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink({ description, merchant_details: { ...sampleLink().merchant_details, name } }));
    const response = await fetch(`${gw.url}/checkout?ref=${ref}`);
    const page = await response.text();
    const [, shadow, data] = /<pay-checkout embedded="false">(<template shadowrootmode="open">.*?<\/template>)<script type="application\/json">(.*?)<\/script><\/pay-checkout>/s.exec(page) ?? [];
    assert.ok(shadow, 'the order painted from the HTML, before the view');
    assert.doesNotMatch(shadow, /<script|<!--/i, 'the merchant text is no markup in the first paint either');
    assert.ok(shadow.includes('Shop &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--'), 'the name, escaped');
    const style = /<template shadowrootmode="open"><style>(.*?)<\/style>/s.exec(shadow)?.[1] ?? '';
    assert.ok(response.headers.get('content-security-policy')?.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`), 'its stylesheet matches its hash');
    assert.ok(data, 'the view is inside the element');
    assert.doesNotMatch(data, /[<>&\u2028\u2029]/, 'nothing the HTML parser (or a JavaScript reader) could take as markup or a line end');
    const view = JSON.parse(data) as { payment_link_ref: string; description: string; merchant_details: { name: string } };
    assert.equal(view.payment_link_ref, ref);
    assert.equal(view.description, description);
    assert.equal(view.merchant_details.name, name);
    assert.deepEqual(view, await (await fetch(`${gw.url}/api/checkout/${ref}`)).json(), 'the same view the checkout API answers');
  });
});
