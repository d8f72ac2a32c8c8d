import type { Context } from 'hono';
import { responseHeader } from './response-header.js';

/**
 * An answer its service serialized already (services/derived-answers.ts keeps them so), sent as `c.json` sends one.
 * Its Content-Type is the answer's one header, so @hono/node-server writes it as given; the others go beside it.
 */
export function jsonText(c: Context, json: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Response {
  for (const [name, value] of Object.entries(headers)) responseHeader(c, name, value);
  return c.body(json, 200, { 'Content-Type': 'application/json' });
}
