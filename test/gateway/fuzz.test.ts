// Property: a body broken in any way the validators should catch gets a 4xx with problem details (RFC 6749 errors at
// the token endpoint), never a 500, and leaves no row behind. Bodies are valid ones mutated (a required field dropped,
// a wrong type, an over-long or empty string, a negative, fractional or out-of-range amount, a bad format, a lone
// surrogate or NUL, nested junk), or not an object at all (other JSON, broken JSON text).
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Hono } from 'hono';
import { Problem, TokenError, type PaymentLinkInput } from '../../src/contract/index.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { FORM, inProcess, JSON_TYPE, rowCounts, send, sign, signedLinkBody } from '../helpers/merchant-api.js';

const RUNS = 500;

/** What a field must be; a mutation draws a value that breaks exactly that. */
type Rule =
  | { kind: 'text'; max: number; min?: number }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'format'; bad: readonly string[] }
  | { kind: 'bool' }
  | { kind: 'object' }
  | { kind: 'array'; max: number };
interface Field {
  path: string;
  rule: Rule;
  required: boolean;
}

const BAD_URLS = ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://shop.example/x', 'http://shop.example/x', '//shop.example/x', '/x', 'https://u:p@shop.example/', 'not a url'];
const url = (path: string, required: boolean): Field => ({ path, rule: { kind: 'format', bad: BAD_URLS }, required });
const text = (path: string, max: number, min = 0, required = min > 0): Field => ({ path, rule: { kind: 'text', max, min }, required });
const vnd = (path: string, min: number, required: boolean): Field => ({ path, rule: { kind: 'int', min, max: 10_000_000_000_000 }, required });
const format = (path: string, bad: readonly string[], required = false): Field => ({ path, rule: { kind: 'format', bad }, required });
const object = (path: string): Field => ({ path, rule: { kind: 'object' }, required: false });
const bool = (path: string): Field => ({ path, rule: { kind: 'bool' }, required: false });
const enumOf = (path: string, values: readonly string[], required = true): Field => ({ path, rule: { kind: 'enum', values }, required });

const COUNTRY = ['V', 'VNM', '1A', 'Ña', ''];
const EMAIL = ['an', 'an@', '@example.com', 'a n@example.com', 'an@example..com'];
const PHONE = ['call me', '12', '+'.repeat(40), '0'.repeat(33)];
const LOCALE = ['v', 'vietnamese-language-tag-too-long', '12', 'vi VN'];
const address = (prefix: string): Field[] => [
  object(prefix),
  text(`${prefix}.city`, 100),
  format(`${prefix}.country_code`, COUNTRY),
  format(`${prefix}.locale`, LOCALE),
  text(`${prefix}.line_1`, 200),
  text(`${prefix}.line_2`, 200),
  text(`${prefix}.postal_code`, 20),
  text(`${prefix}.state`, 100),
];

const LINK_FIELDS: Field[] = [
  text('svc_key', 200, 1),
  format('merchant_order_id', ['', ' order', 'order 1', 'a/b', '../x', '-x', 'đơn-hàng', 'x'.repeat(65)], true),
  vnd('amount', 1, true),
  format('currency', ['', 'VN', 'VNDD', 'V1D', 'ĐỒN', 'USD', 'eur'], true),
  format('country_code', COUNTRY),
  object('billing_details'),
  text('billing_details.billing_name', 200),
  format('billing_details.billing_email', EMAIL),
  format('billing_details.billing_phone', PHONE),
  ...address('billing_details.billing_address'),
  object('merchant_details'),
  text('merchant_details.name', 100),
  url('merchant_details.logo', false),
  url('merchant_details.back_url', false),
  text('merchant_details.promo_code', 64),
  vnd('merchant_details.promo_discount', 0, false),
  vnd('merchant_details.shipping_charges', 0, false),
  { path: 'order_details', rule: { kind: 'array', max: 100 }, required: true },
  object('order_details.0'),
  text('order_details.0.id', 64, 1),
  vnd('order_details.0.price', 0, true),
  text('order_details.0.name', 200, 1),
  { path: 'order_details.0.quantity', rule: { kind: 'int', min: 1, max: 10_000 }, required: true },
  url('order_details.0.image', false),
  url('success_url', true),
  url('failure_url', true),
  { path: 'expiry_hours', rule: { kind: 'int', min: 1, max: 720 }, required: true },
  enumOf('source', ['default', 'checkout']),
  text('description', 500, 1),
  bool('show_shipping_details'),
  bool('show_back_button'),
  bool('default_guest_checkout'),
  bool('is_checkout_embed'),
  { path: 'sandbox_quote_ttl_seconds', rule: { kind: 'int', min: 5, max: 86_400 }, required: false },
];

const REFUND_FIELDS: Field[] = [
  vnd('amount', 1, true),
  enumOf('channel', ['PROVIDER']),
  text('description', 500, 1),
  enumOf('refund_type', ['partial', 'full']),
  text('refund_reason', 500, 1),
];

const ASSET = ['USDT', 'ETH', 'BTC'] as const;
const NETWORK = ['TRON', 'ETHEREUM', 'BITCOIN'] as const;
const OPEN_PAYMENT_FIELDS: Field[] = [
  enumOf('pmt_channel', ['PROVIDER']),
  enumOf('pmt_method', ['PROVIDER_CRYPTO']),
  enumOf('asset', ASSET),
  enumOf('network', NETWORK),
  object('customer'),
  text('customer.name', 200),
  format('customer.email', EMAIL),
  format('customer.phone', PHONE),
];

const TRANSFER_FIELDS: Field[] = [
  format('to', ['', 'TXYZ', '0x0000', 'tb1qnotanaddress', 'x'.repeat(121)], true),
  enumOf('asset', ASSET),
  enumOf('network', NETWORK),
  format('amount', ['', '-1', '1.', '.5', '1e3', 'NaN', '0x10', '1,5', '0', '0.0000000000000000001', '99999999'], true),
];
const MINE_FIELDS: Field[] = [
  { path: 'blocks', rule: { kind: 'int', min: 1, max: 1000 }, required: false },
  enumOf('network', NETWORK, false),
];

/** A string that is not valid in an enum or a format field: other text, NUL, a lone surrogate. */
const junkText = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '😀\ud83d'));
/** Strings that PostgreSQL cannot hold: valid JSON, still refused (422), never a 500. */
const unstorable = fc.constantFrom('\u0000', 'before\u0000after', '\ud800', 'lone \udc00 low', 'end \ud83d');
const notAString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }));
const notANumber = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('360000', 'NaN', 'Infinity', '1e3'), fc.boolean(), fc.constant(null), fc.constant([1]), fc.constant({ value: 1 }));
/** A value whose JSON text is `1e400`: JSON.parse reads it as Infinity. */
const HUGE_NUMBER = Symbol('1e400');

function breaking(rule: Rule): fc.Arbitrary<unknown> {
  switch (rule.kind) {
    case 'text':
      return fc.oneof(
        notAString,
        unstorable,
        fc.integer({ min: rule.max + 1, max: rule.max + 5_000 }).map((n) => 'x'.repeat(n)),
        fc.constant('x'.repeat(100_000)),
        ...(rule.min ? [fc.constant('')] : []),
      );
    case 'int':
      return fc.oneof(
        notANumber,
        fc.integer({ min: -1_000_000, max: rule.min - 1 }),
        fc.integer({ min: rule.max + 1, max: Number.MAX_SAFE_INTEGER }),
        fc.double({ min: rule.min, max: rule.max, noNaN: true }).filter((x) => !Number.isInteger(x)),
        fc.constantFrom(1e300, -1e300, Number.MAX_SAFE_INTEGER + 2, HUGE_NUMBER),
      );
    case 'enum':
      return fc.oneof(notAString, junkText.filter((s) => !rule.values.includes(s)), fc.constant(rule.values.map((v) => v.toLowerCase() + '_')).chain((v) => fc.constantFrom(...v)));
    case 'format':
      return fc.oneof(notAString, fc.constantFrom(...rule.bad), unstorable);
    case 'bool':
      return fc.oneof(fc.constantFrom('true', 'false', 1, 0, null, 'yes'), fc.constant([true]));
    case 'object':
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }));
    case 'array':
      return fc.oneof(
        fc.constant([]),
        fc.string({ maxLength: 10 }),
        fc.integer(),
        fc.constant(null),
        fc.dictionary(fc.string(), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
        fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
        fc.constant(Array.from({ length: rule.max + 1 }, () => ({ id: 'x', name: 'x', price: 0, quantity: 1 }))),
      );
  }
}

/** One mutation of a valid body: where it is, and what it does. */
type Mutation = { path: string; value: unknown } | { path: string; drop: true };

function mutations(fields: Field[]): fc.Arbitrary<Mutation> {
  const required = fields.filter((f) => f.required);
  const broken = fc.constantFrom(...fields).chain((f) => breaking(f.rule).map((value): Mutation => ({ path: f.path, value })));
  if (!required.length) return broken;
  return fc.oneof(fc.constantFrom(...required).map((f): Mutation => ({ path: f.path, drop: true })), broken);
}

/** Applies mutations to a copy of `valid`; a mutation below a member that an earlier one made a non-object replaces it. */
function mutate(valid: Record<string, unknown>, list: Mutation[]): Record<string, unknown> {
  const body = structuredClone(valid);
  for (const m of list) {
    const keys = m.path.split('.');
    const last = keys.pop()!;
    let node: Record<string, unknown> = body;
    for (const key of keys) {
      const next = node[key];
      if (typeof next !== 'object' || next === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    if ('drop' in m) delete node[last];
    else node[last] = m.value;
  }
  return body;
}

const toJson = (body: unknown): string =>
  JSON.stringify(body, (_key, value: unknown) => (value === HUGE_NUMBER ? '__HUGE__' : value)).replaceAll('"__HUGE__"', '1e400');

/** A body text: a mutated valid object (re-signed by `finish` where the endpoint signs), other JSON, or broken JSON. */
function bodies(valid: Record<string, unknown>, fields: Field[], finish: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b) {
  const text = toJson(valid);
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(mutations(fields), { minLength: 1, maxLength: 3 }).map((list) => ({ text: toJson(finish(mutate(valid, list))), list })) },
    { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), fc.constantFrom([], [valid], 'body', 0, null)).map((v) => ({ text: JSON.stringify(v), list: [] })) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.integer({ min: 0, max: text.length - 1 }).map((n) => text.slice(0, n)),
        fc.constantFrom(`${text.slice(0, -1)},}`, `${text}}`, text.replace(/"/g, "'"), '{a:1}', `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`, '\u0000'),
        fc.string(),
      ).map((t) => ({ text: t, list: [] })),
    },
  );
}

describe(`fuzzed request bodies (${storageName})`, () => {
  // Hundreds of wrong secrets are the point here: the limit on them is test/limits/secrets.test.ts's.
  const gw = useTestGateway({ token: true, config: { limits: { ...DEFAULT_LIMITS, failedSecretsPerClientId: 1_000_000, failedSecretsPerAddress: 1_000_000 } } });
  let app: Hono;
  before(() => {
    app = inProcess(gw);
  });

  // Set-up in process too: this file keeps the event loop busy for seconds, which would stale an idle HTTP connection.
  async function createLink(input: PaymentLinkInput): Promise<string> {
    const answer = await send<{ payment_link_ref: string }>(app, 'POST', '/api/paymentLink', { body: JSON.stringify(signedLinkBody(gw.credentials, input)), headers: JSON_TYPE });
    assert.equal(answer.status, 201);
    return answer.body.payment_link_ref;
  }
  async function paidOrder(): Promise<string> {
    const input = sampleLink();
    await gw.markPaid(await createLink(input));
    return input.merchant_order_id;
  }

  /** Runs the property: every body is a 4xx of the expected shape and changes no table; returns the statuses seen. */
  async function refusedWithoutTrace(
    arbitrary: fc.Arbitrary<{ text: string; list: Mutation[] }>,
    request: (text: string) => Promise<{ status: number; headers: Headers; body: unknown }>,
    shape: 'problem' | 'oauth' = 'problem',
  ): Promise<Map<number, number>> {
    const seen = new Map<number, number>();
    let counts = await rowCounts(gw.gateway.db);
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ text, list }) => {
        const answer = await request(text);
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        assert.ok(answer.status >= 400 && answer.status < 500, `${answer.status} ${JSON.stringify(answer.body)}`);
        if (shape === 'oauth') {
          assert.ok(TokenError.safeParse(answer.body).success, JSON.stringify(answer.body));
        } else {
          assert.equal(answer.headers.get('content-type'), 'application/problem+json');
          const problem = Problem.parse(answer.body);
          assert.equal(problem.status, answer.status);
          // A single field-level mutation is named: the field itself, or the member that holds it.
          if (answer.status === 422 && list.length === 1 && problem.errors) {
            const path = list[0]!.path;
            assert.ok(
              problem.errors.some((e) => path === e.path || path.startsWith(`${e.path}.`) || e.path.startsWith(`${path}.`) || e.path === 'amount' || e.path === '(body)'),
              `${path} not named in ${JSON.stringify(problem.errors)}`,
            );
          }
        }
        // The baseline moves with a failure, so that shrinking judges each smaller body on its own.
        const before = counts;
        counts = await rowCounts(gw.gateway.db);
        assert.deepEqual(counts, before, `rows changed for ${text.slice(0, 200)}`);
      }),
      { numRuns: RUNS },
    );
    return seen;
  }

  const json = (path: string, headers: Record<string, string> = {}) => (text: string) =>
    send(app, 'POST', path, { body: text, headers: { ...JSON_TYPE, ...headers } });

  it(`POST /api/v2/oauth/token: ${RUNS} broken forms are all RFC 6749 errors`, async () => {
    const { clientId, clientSecret } = gw.credentials;
    const valid = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const wrongCredential = fc.oneof(fc.string(), fc.constantFrom('', 'a\u0000b', '%', 'x'.repeat(10_000), `${clientSecret}x`, clientSecret.toUpperCase())).filter((s) => s !== clientSecret && s !== clientId);
    const form = fc
      .record({
        grant_type: fc.option(fc.oneof(fc.constantFrom('client_credentials', 'password', '', 'CLIENT_CREDENTIALS'), fc.string()), { nil: undefined }),
        client_id: fc.option(fc.oneof(fc.constant(clientId), wrongCredential), { nil: undefined }),
        client_secret: fc.option(fc.oneof(fc.constant(clientSecret), wrongCredential), { nil: undefined }),
        repeat: fc.option(fc.constantFrom('grant_type', 'client_id', 'client_secret'), { nil: undefined }),
        basic: fc.option(fc.tuple(fc.string(), wrongCredential), { nil: undefined }),
        type: fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/json', 'text/plain', ''),
      })
      .map((f) => {
        const params = new URLSearchParams();
        for (const name of ['grant_type', 'client_id', 'client_secret'] as const) if (f[name] !== undefined) params.append(name, f[name]);
        if (f.repeat) params.append(f.repeat, valid[f.repeat]);
        const headers: Record<string, string> = f.type ? { 'Content-Type': f.type } : {};
        if (f.basic) headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(f.basic[0])}:${encodeURIComponent(f.basic[1])}`).toString('base64')}`;
        const isValid = f.type.includes('form') && !f.basic && Object.entries(valid).every(([name, value]) => params.getAll(name).join('\n') === value);
        return { params, headers, json: f.type === 'application/json', isValid };
      })
      // Only requests that cannot be right: a valid one is what the other tests are for.
      .filter((r) => !r.isValid);
    const seen = new Map<number, number>();
    let counts = await rowCounts(gw.gateway.db);
    await fc.assert(
      fc.asyncProperty(form, async ({ params, headers, json }) => {
        const answer = await send(app, 'POST', '/api/v2/oauth/token', { body: json ? JSON.stringify(valid) : params.toString(), headers });
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        assert.ok([400, 401].includes(answer.status), `${answer.status} ${JSON.stringify(answer.body)} for ${params} ${JSON.stringify(headers)}`);
        assert.ok(TokenError.safeParse(answer.body).success, JSON.stringify(answer.body));
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        const before = counts;
        counts = await rowCounts(gw.gateway.db);
        assert.deepEqual(counts, before);
      }),
      // A wrong secret in an otherwise right form is rare among random forms: given, so both answers are always seen.
      { numRuns: RUNS, examples: [[{ params: new URLSearchParams({ ...valid, client_secret: `${clientSecret}x` }), headers: FORM, json: false, isValid: false }]] },
    );
    assert.deepEqual([...seen.keys()].sort(), [400, 401]);
    // Raw bytes as the form body are refused the same way.
    const raw = await refusedWithoutTrace(
      fc.string({ unit: 'binary', maxLength: 200 }).filter((t) => !/grant_type=client_credentials/.test(t)).map((t) => ({ text: t, list: [] })),
      (t) => send(app, 'POST', '/api/v2/oauth/token', { body: t, headers: FORM }),
      'oauth',
    );
    assert.ok(raw.size > 0);
  });

  it(`POST /api/paymentLink: ${RUNS} broken bodies, re-signed so the validators answer, are all 4xx problems`, async () => {
    // A live link for one order, so that a valid body for it would be a 409.
    const live = sampleLink();
    await createLink(live);
    const valid = signedLinkBody(gw.credentials, { ...sampleLink(), shipping_details: { shipping_name: 'An', shipping_address: { city: 'Huế' } }, show_back_button: true } as PaymentLinkInput);
    const resign = (body: Record<string, unknown>) => sign(body, gw.credentials.clientSecret);
    const rules = fc.constantFrom<Mutation[]>(
      [{ path: 'amount', value: 360_001 }],
      [{ path: 'currency', value: 'USD' }],
      [{ path: 'source', value: 'default' }],
      [{ path: 'merchant_order_id', value: live.merchant_order_id }],
      [{ path: 'merchant_details.promo_discount', value: 0 }],
    );
    const signature = fc.oneof(fc.constant(undefined), fc.string(), fc.constant(valid.signature_hash), fc.integer());
    const seen = await refusedWithoutTrace(
      fc.oneof(
        { weight: 6, arbitrary: bodies(valid, LINK_FIELDS, resign) },
        { weight: 1, arbitrary: rules.map((list) => ({ text: toJson(resign(mutate(valid, list))), list })) },
        // Valid fields, signature broken or left over from before a change.
        { weight: 1, arbitrary: fc.tuple(signature, fc.constantFrom('description', 'amount', 'success_url')).map(([s, path]) => ({ text: toJson({ ...valid, [path]: path === 'amount' ? 359_999 : `${String(valid[path])}#`, signature_hash: s }), list: [] })) },
      ),
      json('/api/paymentLink'),
    );
    for (const status of [400, 401, 409, 422]) assert.ok(seen.has(status), `no ${status} among ${[...seen.keys()]}`);
    assert.ok(seen.get(422)! > RUNS / 2, 'most bodies reach the field validators');
  });

  it(`POST /api/refund/createRefund/{order_id}: ${RUNS} broken bodies against a paid order are all 4xx problems`, async () => {
    const orderId = await paidOrder();
    const valid = { amount: 1_000, channel: 'PROVIDER', description: 'returned goods', refund_type: 'partial', refund_reason: 'damaged' };
    const rules = fc.oneof(
      fc.integer({ min: 360_001, max: 10_000_000_000_000 }).map((amount): Mutation[] => [{ path: 'amount', value: amount }]),
      fc.integer({ min: 1, max: 359_999 }).map((amount): Mutation[] => [{ path: 'amount', value: amount }, { path: 'refund_type', value: 'full' }]),
    );
    const seen = await refusedWithoutTrace(
      fc.oneof({ weight: 6, arbitrary: bodies(valid, REFUND_FIELDS) }, { weight: 1, arbitrary: rules.map((list) => ({ text: toJson(mutate(valid, list)), list })) }),
      json(`/api/refund/createRefund/${orderId}`, { Authorization: `Bearer ${gw.token}`, 'Idempotency-Key': 'fuzz' }),
    );
    for (const status of [400, 422]) assert.ok(seen.has(status), `no ${status} among ${[...seen.keys()]}`);
  });

  it(`POST /api/checkout/{ref}/payments: ${RUNS} broken bodies are all 4xx problems`, async () => {
    const ref = await createLink(sampleLink());
    const valid = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON', customer: { name: 'An', email: 'an@example.com' } };
    const mismatched = fc.constantFrom(['USDT', 'BITCOIN'], ['ETH', 'TRON'], ['BTC', 'ETHEREUM'], ['BTC', 'TRON']).map(([asset, network]): Mutation[] => [
      { path: 'asset', value: asset },
      { path: 'network', value: network },
    ]);
    // A code shaped like an asset that no network carries names the asset, not the network.
    const unknown = fc.constantFrom('AA', 'A0', 'DOGE').map((asset): Mutation[] => [{ path: 'asset', value: asset }]);
    const seen = await refusedWithoutTrace(
      fc.oneof(
        { weight: 6, arbitrary: bodies(valid, OPEN_PAYMENT_FIELDS) },
        { weight: 1, arbitrary: fc.oneof(mismatched, unknown).map((list) => ({ text: toJson(mutate(valid, list)), list })) },
      ),
      json(`/api/checkout/${ref}/payments`),
    );
    for (const status of [400, 422]) assert.ok(seen.has(status));
  });

  it(`POST /sandbox/wallet/transfers and /sandbox/chain/mine: ${RUNS} broken bodies each are all 4xx problems`, async () => {
    const { addresses } = gw.gateway.wallet;
    const transfer = { to: addresses.TRON, asset: 'USDT', network: 'TRON', amount: '1.5' };
    const overdraw = fc.constant<Mutation[]>([{ path: 'amount', value: '1000000000' }]);
    // Codes shaped like an asset that no network carries, and assets of other networks: each names its own field.
    const misplaced = fc.constantFrom<Mutation[]>([{ path: 'asset', value: 'A0' }], [{ path: 'asset', value: 'DOGE' }], [{ path: 'network', value: 'ETHEREUM' }, { path: 'asset', value: 'BTC' }]);
    await refusedWithoutTrace(
      fc.oneof(
        { weight: 6, arbitrary: bodies(transfer, TRANSFER_FIELDS) },
        { weight: 1, arbitrary: fc.oneof(overdraw, misplaced).map((list) => ({ text: toJson(mutate(transfer, list)), list })) },
      ),
      json('/sandbox/wallet/transfers'),
    );
    // An empty body mines one block: only broken, non-empty ones here.
    await refusedWithoutTrace(
      bodies({ blocks: 1, network: 'TRON' }, MINE_FIELDS).filter(({ text }) => text.trim() !== ''),
      json('/sandbox/chain/mine'),
    );
  });
});
