// POST {base_url}/api/paymentLink and the rules of docs/api.md, "Create a payment link".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Problem } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { JSON_TYPE, rowCounts, send, sign, signedLinkBody, type Answer } from '../helpers/merchant-api.js';

const OPEN_USDT = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;

describe(`payment link endpoint (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  const post = (body: unknown, headers: Record<string, string> = JSON_TYPE) =>
    send<Record<string, unknown>>(gw.url, 'POST', '/api/paymentLink', { body: typeof body === 'string' ? body : JSON.stringify(body), headers });
  const signed = (input: Record<string, unknown> = sampleLink()) => signedLinkBody(gw.credentials, input);
  /** A valid signed body with the value at `path` replaced (or removed when `value` is undefined), signed afresh. */
  function withField(path: string, value: unknown): Record<string, unknown> {
    const body = structuredClone(signed());
    const keys = path.split('.');
    const last = keys.pop()!;
    const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, body);
    if (value === undefined) delete parent[last];
    else parent[last] = value;
    return sign(body, gw.credentials.clientSecret);
  }

  function assertProblem(answer: Answer<Record<string, unknown>>, status: number): Problem {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    const problem = answer.body as unknown as Problem;
    assert.equal(problem.status, status);
    assert.equal(typeof problem.title, 'string');
    assert.ok(problem.detail);
    return problem;
  }
  /** A 422 whose `errors` name `path` with a message matching `message`; nothing stored. */
  async function assertRefused(body: unknown, path: string, message: RegExp = /./) {
    const counts = await rowCounts(gw.gateway.db);
    const problem = assertProblem(await post(body), 422);
    const named = problem.errors?.find((e) => e.path === path);
    assert.ok(named, `${path} not named in ${JSON.stringify(problem.errors)}`);
    assert.match(named.message, message);
    assert.deepEqual(await rowCounts(gw.gateway.db), counts);
    return problem;
  }

  it('creates a link: {payment_link_ref, payment_link} with payment_link = {checkout_url}?ref=<ref>', async () => {
    const body = signed();
    const answer = await post(body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ['payment_link', 'payment_link_ref']);
    const ref = answer.body.payment_link_ref as string;
    assert.match(ref, /^pl_[A-Za-z0-9_-]{22}$/);
    assert.equal(answer.body.payment_link, `${gw.gateway.config.checkoutUrl}?ref=${ref}`);
    const [row] = await gw.gateway.db.query<{ merchant_order_id: string; amount: number; status: string; request: Record<string, unknown> }>(
      'SELECT merchant_order_id, amount, status, request FROM payment_links WHERE payment_link_ref = $1',
      [ref],
    );
    assert.deepEqual([row?.merchant_order_id, row?.amount, row?.status], [body.merchant_order_id, 360_000, 'active']);
    // The merchant key and the signature are credentials, not order data: they are not kept with the link.
    assert.equal(row?.request.svc_key, undefined);
    assert.equal(row?.request.signature_hash, undefined);
  });

  it('names each missing required field', async () => {
    for (const path of ['svc_key', 'merchant_order_id', 'amount', 'currency', 'order_details', 'success_url', 'failure_url', 'expiry_hours', 'source', 'description']) {
      await assertRefused(withField(path, undefined), path, /^is required$/);
    }
    for (const path of ['order_details.0.id', 'order_details.0.price', 'order_details.0.name', 'order_details.0.quantity']) {
      await assertRefused(withField(path, undefined), path, /^is required$/);
    }
  });

  it('names each malformed field with its rule', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['amount', 360_000.5, /whole number/],
      ['amount', '360000', /whole number/],
      ['amount', 0, /at least 1/],
      ['amount', -360_000, /at least 1/],
      ['amount', 10_000_000_000_001, /at most 10000000000000 VND/],
      ['currency', 'VN', /three-letter/],
      ['currency', 704, /currency code/],
      ['merchant_order_id', 'order 1', /letters, digits/],
      ['merchant_order_id', '../admin', /letters, digits/],
      ['merchant_order_id', 'x'.repeat(65), /1 to 64/],
      ['country_code', 'VNM', /two-letter/],
      ['billing_details.billing_email', 'not-an-email', /e-mail/],
      ['billing_details.billing_phone', 'call me', /phone/],
      ['billing_details.billing_address.locale', 'Vietnamese!', /language code/],
      ['billing_details.billing_address.postal_code', '1'.repeat(21), /at most 20/],
      ['billing_details', 'Nguyễn Văn An', /object/],
      ['merchant_details.promo_discount', -1, /negative/],
      ['merchant_details.shipping_charges', 1.5, /whole number/],
      ['order_details', [], /at least one/],
      ['order_details', { id: 'sku-1' }, /list/],
      ['order_details.0.quantity', 0, /at least 1/],
      ['order_details.0.quantity', 2.5, /whole number/],
      ['order_details.0.price', null, /whole number/],
      ['order_details.0.name', '', /not be empty/],
      ['expiry_hours', 0, /at least 1 hour/],
      ['expiry_hours', 721, /at most 720/],
      ['expiry_hours', '24', /whole number of hours/],
      ['description', '', /not be empty/],
      ['description', 'd'.repeat(501), /at most 500/],
      ['show_back_button', 'yes', /true or false/],
      ['is_checkout_embed', 1, /true or false/],
      ['source', 'web', /one of default, api, checkout/],
      ['sandbox_quote_ttl_seconds', 4, /at least 5 seconds/],
      ['sandbox_quote_ttl_seconds', 86_401, /at most 86400/],
      ['sandbox_quote_ttl_seconds', 30.5, /whole number of seconds/],
    ];
    for (const [path, value, message] of cases) await assertRefused(withField(path, value), path, message);
  });

  it("takes a tester's quote lifetime for the link (sandbox only): each of its quotes holds the rate that long, never past the link", async () => {
    const created = await post(withField('sandbox_quote_ttl_seconds', 30));
    assert.equal(created.status, 201);
    const ref = String(created.body.payment_link_ref);
    const { payment } = await gw.gateway.customerCheckout.open(ref, OPEN_USDT);
    assert.equal(Date.parse(payment.quote_expires_at) - gw.clock.now().getTime(), 30_000);
    // Without it, the gateway's own lifetime (SANDBOX_QUOTE_TTL_SECONDS, 900 s by default).
    const plain = String((await post(signed())).body.payment_link_ref);
    const other = (await gw.gateway.customerCheckout.open(plain, OPEN_USDT)).payment;
    assert.equal(Date.parse(other.quote_expires_at) - gw.clock.now().getTime(), 900_000);
  });

  it('names every bad field of a body at once', async () => {
    const body = sign({ ...withField('currency', 'V'), amount: -1, expiry_hours: 0, success_url: 'ftp://shop.example' }, gw.credentials.clientSecret);
    const problem = await assertRefused(body, 'amount');
    assert.deepEqual(problem.errors?.map((e) => e.path).sort(), ['amount', 'currency', 'expiry_hours', 'success_url']);
  });

  it('takes VND only, saying why', async () => {
    const problem = await assertRefused(withField('currency', 'USD'), 'currency', /VND/);
    assert.match(problem.detail ?? '', /VND only/);
    const lower = await post(withField('currency', 'vnd'));
    assert.equal(lower.status, 201, 'the code is case-insensitive');
  });

  it('refuses an amount that is not the order total, naming both figures', async () => {
    // 2 × 150,000 + 50,000 − 20,000 + 30,000 = 360,000
    const problem = await assertRefused(withField('amount', 360_001), 'amount', /360000.*360001/);
    assert.match(problem.detail ?? '', /360001 VND.*360000 VND/);
    await assertRefused(withField('merchant_details.shipping_charges', 0), 'amount', /330000/);
    assert.equal((await post(withField('merchant_details', undefined))).status, 422, 'without promo and shipping the total is 350,000');
    const noExtras = sampleLink({ amount: 350_000, merchant_details: undefined });
    assert.equal((await post(signed(noExtras))).status, 201);
  });

  it('takes only absolute https: URLs (http: on localhost) in every URL field', async () => {
    const refused = [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://shop.example/ok',
      'http://shop.example/ok',
      '//shop.example/ok',
      '/success',
      'https://user:password@shop.example/ok',
      `https://shop.example/${'x'.repeat(2048)}`,
    ];
    const fields = ['success_url', 'failure_url', 'merchant_details.back_url', 'merchant_details.logo', 'order_details.0.image'];
    for (const path of fields) {
      for (const url of refused) await assertRefused(withField(path, url), path, /https:|at most 2048/);
    }
    for (const url of ['https://shop.example/ok?x=1#top', 'http://localhost:3000/ok', 'http://127.0.0.1/ok']) {
      const answer = await post(withField('success_url', url));
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
    }
  });

  it('takes source api only: the admin portal and the checkout make links another way', async () => {
    for (const source of ['default', 'checkout']) await assertRefused(withField('source', source), 'source', /must be api/);
  });

  it('refuses a second live link for an order with 409, and takes a new one once the first expired', async () => {
    const input = sampleLink({ expiry_hours: 1 });
    assert.equal((await post(signed(input))).status, 201);
    const counts = await rowCounts(gw.gateway.db);
    const second = await post(signed({ ...input, description: 'again' }));
    assertProblem(second, 409);
    assert.match(String(second.body.detail), new RegExp(input.merchant_order_id));
    assert.deepEqual(await rowCounts(gw.gateway.db), counts);
    gw.clock.advance(3_600_000);
    assert.equal((await post(signed(input))).status, 201);
  });

  it('refuses a second link for a paid order, even once the paid link is past its expiry', async () => {
    const input = sampleLink({ expiry_hours: 1 });
    const first = await post(signed(input));
    await gw.markPaid(first.body.payment_link_ref as string);
    gw.clock.advance(2 * 3_600_000);
    assertProblem(await post(signed(input)), 409);
  });

  it('creates one link when ten requests for one order race', async () => {
    const input = sampleLink();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(signed({ ...input, description: `try ${i}` }))));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array<number>(9).fill(409)]);
    const rows = await gw.gateway.db.query('SELECT 1 FROM payment_links WHERE merchant_order_id = $1', [input.merchant_order_id]);
    assert.equal(rows.length, 1);
  });

  it('answers 401 for an unknown svc_key and for a missing or wrong signature, storing nothing', async () => {
    const counts = await rowCounts(gw.gateway.db);
    const unknownKey = sign({ ...signed(), svc_key: 'not_a_merchant_key' }, gw.credentials.clientSecret);
    assert.match(assertProblem(await post(unknownKey), 401).detail ?? '', /svc_key/);
    const { signature_hash: _s, ...unsigned } = signed();
    assert.match(assertProblem(await post(unsigned), 401).detail ?? '', /signature_hash is required/);
    for (const signature of ['', 'c2lnbmF0dXJl', 42, null]) {
      assert.match(assertProblem(await post({ ...signed(), signature_hash: signature }), 401).detail ?? '', /does not match/);
    }
    assert.deepEqual(await rowCounts(gw.gateway.db), counts);
  });

  it('answers a body that is not a JSON object with a 4xx problem', async () => {
    const valid = JSON.stringify(signed());
    assertProblem(await post(valid, { 'Content-Type': 'text/plain' }), 415);
    assertProblem(await post(valid.slice(0, -1)), 400);
    assertProblem(await post('[]'), 400);
    assertProblem(await post('null'), 400);
    assertProblem(await post(JSON.stringify({ ...signed(), description: 'x'.repeat(300 * 1024) })), 413);
    await assertRefused(withField('description', 'before\u0000after'), 'description', /NUL/);
    await assertRefused(withField('billing_details.billing_name', 'lone \ud800 surrogate'), 'billing_details.billing_name', /surrogate/);
    await assertRefused(valid.replace(/}$/, ',"note":1e400}'), 'note', /double range/);
    // Refused before parsing: a deep body costs JSON.parse everyone's time.
    assert.match(assertProblem(await post(valid.replace(/}$/, `,"deep":${'['.repeat(120_000)}${']'.repeat(120_000)}}`)), 400).detail ?? '', /deeper than 32/);
    assert.match(assertProblem(await post(valid.replace(/}$/, `,"deep":${'['.repeat(32)}${']'.repeat(32)}}`)), 400).detail ?? '', /deeper than 32/);
    const notUtf8 = Buffer.concat([Buffer.from(valid.slice(0, -1)), Buffer.from(',"note":"\xff\xfe"}', 'latin1')]);
    const refused = await fetch(`${gw.url}/api/paymentLink`, { method: 'POST', headers: JSON_TYPE, body: notUtf8 });
    assert.deepEqual([refused.status, ((await refused.json()) as { detail: string }).detail], [400, 'The body must be valid UTF-8.']);
  });

  it('holds a chunked body (no Content-Length) to the same 256 KiB', async () => {
    const chunked = (body: string) =>
      fetch(`${gw.url}/api/paymentLink`, { method: 'POST', headers: JSON_TYPE, body: new Blob([body]).stream(), duplex: 'half' } as RequestInit);
    const tooLarge = await chunked(JSON.stringify({ ...signed(), description: 'x'.repeat(300 * 1024) }));
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.headers.get('content-type'), 'application/problem+json');
    assert.equal((await chunked(JSON.stringify(signed()))).status, 201);
  });

  it('is a server-to-server endpoint: no CORS', async () => {
    const preflight = await send(gw.url, 'OPTIONS', '/api/paymentLink', {
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    const answer = await send(gw.url, 'POST', '/api/paymentLink', { body: JSON.stringify(signed()), headers: { ...JSON_TYPE, Origin: 'https://shop.example' } });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });

  it('replays the first answer for the same Idempotency-Key and body, and refuses the key with another body', async () => {
    const body = signed();
    const key = { ...JSON_TYPE, 'Idempotency-Key': 'link-attempt-1' };
    const first = await post(body, key);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await post(body, key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await gw.gateway.db.query('SELECT 1 FROM payment_links')).length, 1);
    const other = await post(signed(sampleLink()), key);
    const problem = assertProblem(other, 422);
    assert.deepEqual(problem.errors?.map((e) => e.path), ['Idempotency-Key']);
    assert.equal((await gw.gateway.db.query('SELECT 1 FROM payment_links')).length, 1);
  });

  it('keeps one link per answer and one answer per key when creations race: keys, orders and bodies shared at random', async () => {
    const request = fc.record({
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }),
      order: fc.constantFrom(0, 1, 2),
      variant: fc.constantFrom(0, 1),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 2, maxLength: 12 }), fc.tuple(...[0, 1, 2].map(() => fc.constantFrom('none', 'live', 'expired'))), async (requests, earlier) => {
        await gw.reset();
        const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
        const orderId = (order: number) => `race-${run}-${order}`;
        // Orders with an earlier link, live or expired, take the long way (a transaction under lock); a new link
        // replaces an expired one there, racing the one-statement creations of other orders under the same key.
        const before = new Set<string>();
        const earlierLink = async (order: number) =>
          before.add((await post(signed(sampleLink({ merchant_order_id: orderId(order), expiry_hours: 1 })))).body.payment_link_ref as string);
        for (const [order, kind] of earlier.entries()) if (kind === 'expired') await earlierLink(order);
        gw.clock.advance(2 * 3_600_000);
        for (const [order, kind] of earlier.entries()) if (kind === 'live') await earlierLink(order);
        const bodies = requests.map(({ order, variant }) => signed(sampleLink({ merchant_order_id: orderId(order), description: `variant ${variant}` })));
        const answers = await Promise.all(requests.map(({ key }, i) => post(bodies[i], key ? { ...JSON_TYPE, 'Idempotency-Key': `${run}-${key}` } : JSON_TYPE)));

        for (const [i, answer] of answers.entries()) assert.ok([201, 409, 422].includes(answer.status), `request ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
        const refs = new Map<string, string>();
        for (const [i, answer] of answers.entries()) {
          const { key, order, variant } = requests[i]!;
          if (answer.status === 422) assert.ok(key, 'only a key used with another request is refused');
          if (answer.status !== 201 || !key) continue;
          const ref = answer.body.payment_link_ref as string;
          assert.equal(refs.get(key) ?? ref, ref, `one answer for key ${key}`);
          refs.set(key, ref);
          refs.set(`${key} ${order} ${variant}`, ref);
        }
        const links = await gw.gateway.db.query<{ payment_link_ref: string; merchant_order_id: string; status: string }>(
          'SELECT payment_link_ref, merchant_order_id, status FROM payment_links',
        );
        const created = answers.filter((a) => a.status === 201).map((a) => a.body.payment_link_ref as string);
        const made = links.map((l) => l.payment_link_ref).filter((ref) => !before.has(ref));
        assert.deepEqual([...new Set(created)].sort(), made.sort(), 'every link made was answered, and every answer is a link');
        for (const order of [0, 1, 2]) assert.ok(links.filter((l) => l.merchant_order_id === orderId(order) && l.status === 'active').length <= 1, `one live link for order ${order}`);
        const kept = await gw.gateway.db.query<{ idempotency_key: string; response: { payment_link_ref: string } }>('SELECT idempotency_key, response FROM idempotency_keys');
        for (const { idempotency_key, response } of kept) {
          assert.ok(links.some((l) => l.payment_link_ref === response.payment_link_ref), `the answer kept for ${idempotency_key} is a link`);
          const key = idempotency_key.slice(run.length + 1);
          if (refs.has(key)) assert.equal(refs.get(key), response.payment_link_ref, `the answer kept for ${key} is the one given`);
        }
      }),
      { numRuns: 25 },
    );
  });
});
