import type { Context } from 'hono';

/** An answer its service serialized already (services/derived-answers.ts keeps them so), sent as `c.json` sends one. */
export const jsonText = (c: Context, text: string, headers: Record<string, string> = {}, status: 200 | 201 = 200): Response =>
  c.body(text, status, { 'Content-Type': 'application/json', ...headers });
