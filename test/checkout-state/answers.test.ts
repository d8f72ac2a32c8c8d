// The element checks the gateway's answers without zod (src/checkout/answers.ts). Generated answers, valid and
// broken in one place, must be accepted and refused alike by those checks and by the gateway's zod schemas
// (src/contract/checkout.ts), and a refused answer must name the same fields. The answers are generated from the
// zod schemas themselves, so a field added to the contract and not to the element's checks is found.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import { checkPayment, checkProblem, checkView, type Checked } from '../../src/checkout/answers.js';
import { CheckoutView, Payment } from '../../src/contract/checkout.js';
import { Problem } from '../../src/contract/problem.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  entries?: Record<string, string>;
  values?: unknown[];
  checks?: unknown[];
  format?: string;
}
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strings and numbers near every rule of the contract: the generator draws leaves from these (and at random). */
const STRINGS = [
  '', 'a', 'Cà Phê Sữa Đá', 'x'.repeat(20), 'x'.repeat(21), 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(200), 'x'.repeat(201),
  'ab\u202Ecd', 'ab\u2066cd', ' ', '\u200B', 'VN', 'us', 'V', 'VNM', 'V1', 'vi', 'en-US', 'vi_VN', 'e', 'en--US', 'zh-Hant-TW', 'abcd',
  '0', '12.5', '360000', '0.000001', '1.', '.5', '-1', '1e3', '1,5', ' 1', 'https://shop.example/x', 'javascript:alert(1)',
  '2026-01-01T00:00:00.000Z', '</script><script>alert(1)</script>', 'line\u2028break', 'USDT', 'usdt', 'TRON', 'VND', 'vnd',
  'PROVIDER', 'PROVIDER_CRYPTO', 'active', 'paid', 'awaiting_payment', 'BSC_TESTNET', 'BNB Smart Chain Testnet', 'BEP-20',
  '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd', 'https://testnet.bscscan.com',
];
const NUMBERS = [0, 1, 7, -5, 360_000, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1.5, -0.5, 1e21];
/** Values put in place of any one field to break the answer (undefined: the field left out). */
const BREAKERS: unknown[] = [undefined, null, true, 0, 1.5, 2 ** 53, -1, '', 'x', '1.', 'ab\u202Ecd', 'x'.repeat(201), 'VNM', [], {}, [{}], 'USDT '];

/** Values at the edges of a string's rules: its length limits, and a bidirectional control within them. */
function edgesOf(def: Def): string[] {
  const edges: string[] = [];
  for (const check of def.checks ?? []) {
    const { check: kind, maximum, minimum } = defOf(check as z.ZodMiniType) as Def & { check?: string; maximum?: number; minimum?: number };
    if (kind === 'max_length' && maximum !== undefined) edges.push('x'.repeat(maximum), 'x'.repeat(maximum + 1), `${'x'.repeat(maximum - 1)}\u202E`);
    if (kind === 'min_length' && minimum !== undefined) edges.push('x'.repeat(minimum), 'x'.repeat(Math.max(0, minimum - 1)));
  }
  return edges;
}

/** A leaf: nearly always valid (from the pools, filtered by the leaf's own schema), now and then at or past its edges. */
function leaf(valid: fc.Arbitrary<unknown>, edges: unknown[]): fc.Arbitrary<unknown> {
  const near = fc.constantFrom(...edges);
  return fc.oneof({ weight: 50, arbitrary: valid }, { weight: 1, arbitrary: near });
}

/** Any value the schema might meet: mostly valid, with leaves at the edges of their rules now and then. */
function arbitraryOf(schema: z.ZodMiniType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const valid = <T>(pool: T[]) => pool.filter((value) => schema.safeParse(value).success);
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const requiredKeys = Object.keys(shape).filter((key) => defOf(shape[key]!).type !== 'optional');
      return fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, arbitraryOf(field)])), { requiredKeys });
    }
    case 'optional':
      return arbitraryOf(def.innerType!);
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType!), { nil: null, freq: 3 });
    case 'array':
      return fc.array(arbitraryOf(def.element!), { maxLength: 3 });
    case 'enum':
      return leaf(fc.constantFrom(...Object.values(def.entries!)), STRINGS);
    case 'literal':
      return leaf(fc.constantFrom(...def.values!), STRINGS);
    case 'boolean':
      return leaf(fc.boolean(), [0, 'true', null]);
    case 'number':
      return leaf(fc.oneof(fc.constantFrom(...valid(NUMBERS)), fc.maxSafeInteger()), NUMBERS);
    case 'string': {
      const pool = fc.constantFrom(...valid([...STRINGS, ...edgesOf(def)]));
      // A string with rules (a pattern, a length) takes valid values from the pool only; a plain one, any string too.
      return leaf(def.checks?.length || def.format ? pool : fc.oneof(pool, fc.string()), [...edgesOf(def), ...STRINGS, ...NUMBERS]);
    }
    default:
      throw new Error(`the generator does not know zod's ${def.type}: teach it, and check answers.ts`);
  }
}

/** Every place in a JSON value a field can stand: [] is the value itself. */
function placesIn(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const places = [path];
  if (Array.isArray(value)) value.forEach((item, index) => places.push(...placesIn(item, [...path, index])));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) places.push(...placesIn(item, [...path, key]));
  return places;
}

/** `value` with the field at `path` replaced by `replacement` (or left out, for undefined). */
function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Answers as generated (valid but for an edge now and then), and answers broken in one field or two. */
function answers(schema: z.ZodMiniType): fc.Arbitrary<unknown> {
  const breakOnce = (value: unknown) =>
    fc.tuple(fc.constantFrom(...placesIn(value)), fc.constantFrom(...BREAKERS)).map(([path, replacement]) => replaced(value, path, replacement));
  const whole = arbitraryOf(schema);
  return fc.oneof({ weight: 2, arbitrary: whole }, { weight: 1, arbitrary: whole.chain(breakOnce) }, { weight: 1, arbitrary: whole.chain(breakOnce).chain(breakOnce) });
}

const zodPaths = (schema: z.ZodMiniType, answer: unknown) => {
  const parsed = schema.safeParse(answer);
  return parsed.success ? undefined : [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.') || '(body)'))].sort();
};
const elementPaths = (checked: Checked<unknown>) => (checked.success ? undefined : [...new Set(checked.issues)].sort());

for (const [name, schema, check] of [
  ['CheckoutView', CheckoutView, checkView],
  ['Payment', Payment, checkPayment],
  ['Problem', Problem, checkProblem],
] as const) {
  test(`the element's check of a ${name} accepts and refuses what the gateway's zod schema does, naming the same fields`, () => {
    const outcomes = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(answers(schema), (answer) => {
        const expected = zodPaths(schema, answer);
        assert.deepEqual(elementPaths(check(answer)), expected, expected ? `zod refuses ${expected.join(', ')}` : 'zod accepts it');
        outcomes[expected ? 'refused' : 'accepted']++;
      }),
      { numRuns: 1_500 },
    );
    // Both sides of the line were tried, each in earnest.
    assert.ok(outcomes.accepted > 300 && outcomes.refused > 300, JSON.stringify(outcomes));
  });
}
