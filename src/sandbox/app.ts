// The gateway's HTTP face: every declared route (routes/index.ts), each handler given only the services it uses;
// every error leaves as problem+json (http/problem.ts); every request has an id, a log line and a duration.
import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { bearer } from './http/bearer.js';
import { asProblem, ProblemError, problemResponse } from './http/problem.js';
import { responseHeader } from './http/response-header.js';
import { signedBody } from './http/signed-body.js';
import { log, requestLog } from './logging.js';
import { routeGroups } from './routes/index.js';
import { honoPath, type Auth } from './routes/route.js';
import type { Services } from './services.js';

/** Methods whose requests carry a body: only these are read against the size limit. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_BODY_BYTES = 256 * 1024;
/** A caller's X-Request-Id is kept when it is a plain token (a load balancer's, a client's); otherwise one is made. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * A 413 for a body over `maxBytes`. A declared length is checked as declared (Node's parser holds the body to it), which
 * leaves the body to @hono/node-server's direct read; Hono's middleware would first turn it into a web stream. Chunked
 * bodies are counted as they come.
 */
function limitBody(maxBytes: number): MiddlewareHandler {
  const tooLarge = (c: Context) => problemResponse(c, new ProblemError(413, `The body must be at most ${maxBytes >= 1024 ? `${maxBytes / 1024} KiB` : `${maxBytes} bytes`}.`));
  const chunked = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    const declared = c.req.header('Content-Length');
    if (declared === undefined || c.req.header('Transfer-Encoding') !== undefined) return chunked(c, next);
    return Number(declared) > maxBytes ? tooLarge(c) : next();
  };
}

declare module 'hono' {
  /** The request's id, on the context: its access line and, for a 500, its error line carry it. */
  interface ContextVariableMap {
    reqId: string;
  }
}

export function createApp(services: Services): Hono {
  const app = new Hono();
  const { metrics } = services;
  const limitDefault = limitBody(MAX_BODY_BYTES);
  // One middleware for what every request goes through (each layer costs a dispatch and a promise per request).
  app.use(async (c, next) => {
    const started = performance.now();
    const given = c.req.header('X-Request-Id');
    const id = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('reqId', id);
    responseHeader(c, 'X-Request-Id', id);
    // A NUL in the path or query can match no resource, and PostgreSQL refuses it in text: say so before any SQL.
    if (c.req.url.includes('%00')) c.res = problemResponse(c, new ProblemError(400, 'The URL must not contain NUL characters (%00).'));
    else if (!WITH_BODY.has(c.req.method)) await next();
    else {
      // A middleware's answer is the context's only when the middleware is called by Hono: the 413 is set here.
      const refused = await limitDefault(c, next);
      if (refused instanceof Response) c.res = refused;
    }
    const seconds = (performance.now() - started) / 1000;
    const route = c.req.routePath;
    metrics.request(c.req.method, route, c.res.status, seconds);
    requestLog.info({ req_id: id, method: c.req.method, route, status: c.res.status, ms: Math.round(seconds * 1e4) / 10 }, 'request');
  });
  // Each route behind the middleware its declaration's `auth` names (the token endpoint checks its client itself).
  const guards: Record<Auth, MiddlewareHandler[]> = {
    bearer: [bearer(services.tokens, services.config.environment)],
    signature: [signedBody(services.merchants, services.config.environment)],
    client: [],
  };
  for (const { use, routes } of routeGroups(services.config.environment)) {
    if (use) app.use(...use);
    for (const { method, path, spec, handler } of routes) {
      const sized = spec.maxBodyBytes === undefined ? [] : [limitBody(spec.maxBodyBytes)];
      app.on(method.toUpperCase(), [honoPath(path)], ...sized, ...(spec.auth ? guards[spec.auth] : []), handler(services));
    }
  }
  app.notFound((c) => problemResponse(c, new ProblemError(404, `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    // The client left (or its body timed out) while its body was read: no one to answer, nothing wrong here. First:
    // its ECONNRESET is the client's socket, not a database connection lost (which asProblem answers with a 503).
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted') {
      log.info({ req_id: c.get('reqId'), method: c.req.method, route: c.req.routePath }, 'client aborted the request body');
      return problemResponse(c, new ProblemError(400, 'The request body was cut off.'));
    }
    const problem = asProblem(error) ?? (error instanceof HTTPException && error.status < 500 ? new ProblemError(error.status, error.message) : undefined);
    if (problem) return problemResponse(c, problem);
    log.error({ req_id: c.get('reqId'), err: error, method: c.req.method, route: c.req.routePath }, 'request failed');
    return problemResponse(c, new ProblemError(500, 'The gateway failed to handle this request.'));
  });
  return app;
}
