import type { Context } from 'hono';

/** An answer its service serialized already (services/derived-answers.ts keeps them so), sent as `c.json` sends one. */
export const jsonText = (c: Context, text: string, headers: Record<string, string> = {}): Response =>
  c.body(text, 200, { 'Content-Type': 'application/json', ...headers });
