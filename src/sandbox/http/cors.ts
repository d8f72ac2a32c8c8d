import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { responseHeader } from './response-header.js';

/**
 * CORS open to every origin, without credentials: the checkout API and the sandbox controls. Preflights are answered
 * by Hono's middleware; any other request gets its one header before the handler runs (http/response-header.ts), so the
 * handler's response (or the problem for its error) is sent as made. Hono's middleware writes it on `c.res` instead,
 * which makes Hono rebuild the handler's response around a web stream: more work than the request's own.
 */
export function openCors(options: { allowHeaders: string[]; maxAge?: number }): MiddlewareHandler {
  const preflight = cors({ origin: '*', ...options });
  return (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    responseHeader(c, 'Access-Control-Allow-Origin', '*');
    return next();
  };
}
