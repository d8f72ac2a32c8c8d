import type { Context } from 'hono';
import { badRequest, ProblemError } from './problem.js';

/** The body as a JSON object; anything else is a 400 that says what was wrong. An empty body is `{}` where it may be. */
export async function readJsonObject(c: Context, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const type = c.req.header('Content-Type') ?? '';
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ProblemError(415, `Content-Type must be application/json, got ${type}.`);
  }
  const text = await c.req.text();
  if (options.optional && text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The body must be valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object.');
  return body as Record<string, unknown>;
}
