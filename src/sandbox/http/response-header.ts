import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/**
 * A header for whatever answer this request gets, event streams (written directly) included. Set on Node's response
 * when there is one: @hono/node-server's writeHead merges it with the answer's own headers, which stay a plain object.
 * Hono's `c.header()` makes a web Headers object instead, which every answer after it is built around and read back
 * out of: about a twentieth of a checkout view's CPU (README, "Every request's fixed cost"). Without Node's response
 * (`app.request()`), Hono's.
 */
export function responseHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}
