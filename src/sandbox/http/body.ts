import type { Context } from 'hono';
import type { FieldError } from '../../contract/index.js';
import { invalid } from '../errors.js';
import { badRequest, ProblemError } from './problem.js';

/** Deeper than any request of the API nests; also keeps recursive canonicalization (JCS) off the stack limit. */
const MAX_DEPTH = 32;
/** A body full of bad values gets an answer of a readable size. */
const MAX_ERRORS = 20;

export interface JsonBodyOptions {
  /** An empty body reads as `{}` (and then needs no Content-Type). */
  optional?: boolean;
  /**
   * The Content-Type may be absent (a present one must still be JSON). Only for two endpoints: createRefund, whose
   * content type the integration document leaves open (its Bearer token keeps browsers out), and the checkout API's POST, which the
   * element sends untyped so that a merchant's page pays no CORS preflight before the QR (public, CORS-open, no
   * credential but the link ref in its path: a preflight protects nothing there; docs/security.md). Everywhere else
   * a JSON body must say so, which also keeps another site's page from sending one without a CORS preflight.
   */
  untyped?: boolean;
}

/** The body as a JSON object; anything else is a 400 or 415 that says what was wrong. */
export async function readJsonObject(c: Context, options: JsonBodyOptions = {}): Promise<Record<string, unknown>> {
  const text = utf8(await c.req.arrayBuffer());
  if (options.optional && text.trim() === '') return {};
  requireJsonType(c.req.header('Content-Type'), options.untyped);
  // Counted on the text, before parsing: a 120,000-deep array costs JSON.parse tens of milliseconds of everyone's time.
  if (nesting(text) > MAX_DEPTH) throw badRequest(`The body must not nest deeper than ${MAX_DEPTH} levels.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The body must be valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object.');
  checkStorable(body);
  return body as Record<string, unknown>;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not UTF-8 are a 400, rather than U+FFFD stored in their place. */
function utf8(bytes: ArrayBuffer): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw badRequest('The body must be valid UTF-8.');
  }
}

/** How deep the JSON text's arrays and objects nest (brackets inside strings do not count); stops once past MAX_DEPTH. */
function nesting(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > MAX_DEPTH) return depth;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return depth;
}

/** 415 unless the Content-Type is JSON (`application/json`, or a `+json` type). */
export function requireJsonType(type: string | undefined, untyped = false): void {
  if (type === undefined || type === '') {
    if (untyped) return;
    throw new ProblemError(415, 'Content-Type must be application/json, and the request sent none.');
  }
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) throw new ProblemError(415, `Content-Type must be application/json, got ${type}.`);
}

/**
 * Valid JSON that the gateway can still not keep or sign: PostgreSQL text and jsonb refuse NUL and unpaired
 * surrogates (`"\u0000"`, `"\ud800"`), and RFC 8785 refuses numbers beyond the double range (`1e400`).
 * Each is a 422 naming where it stands, instead of failing later in the database or the signature check.
 */
function checkStorable(body: object): void {
  const errors: FieldError[] = [];
  // Breadth first: errors come in the body's order (the depth was bounded before parsing).
  const queue: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  for (let next = 0; next < queue.length; next++) {
    const { value, path } = queue[next]!;
    const where = path.join('.') || '(body)';
    if (typeof value === 'number' && !Number.isFinite(value)) errors.push({ path: where, message: 'must be a number within the double range' });
    if (typeof value === 'string' && !isStorableText(value)) errors.push({ path: where, message: 'must not contain NUL characters or unpaired surrogates' });
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (isStorableText(key)) queue.push({ value: child, path: [...path, key] });
      else errors.push({ path: [...path, key].join('.'), message: 'is a member name with NUL characters or unpaired surrogates' });
    }
  }
  if (errors.length) {
    errors.splice(MAX_ERRORS);
    throw invalid(`The body holds ${errors.length === 1 ? 'a value' : 'values'} the gateway cannot store: ${errors.map((e) => e.path).join(', ')}.`, errors);
  }
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);
