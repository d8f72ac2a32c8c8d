// The gateway's HTTP face: one router per resource, each given only the services it uses; every error leaves as
// problem+json (http/problem.ts).
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { asProblem, ProblemError, problemResponse } from './http/problem.js';
import { assetRoutes } from './routes/assets.js';
import { checkoutRoutes } from './routes/checkout.js';
import { oauthRoutes } from './routes/oauth.js';
import { openApiRoutes } from './routes/openapi.js';
import { paymentLinkRoutes } from './routes/payment-links.js';
import { paymentRoutes } from './routes/payments.js';
import { refundRoutes } from './routes/refunds.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { Services } from './services.js';

/** Methods whose requests carry a body: only these are read against the size limit. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_BODY_BYTES = 256 * 1024;

export function createApp(services: Services): Hono {
  const app = new Hono();
  const tooLarge = (c: Context) => problemResponse(c, new ProblemError(413, 'The body must be at most 256 KiB.'));
  const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  app.use(async (c, next) => {
    if (!WITH_BODY.has(c.req.method)) return next();
    // A declared length is checked as declared (Node's parser holds the body to it), which leaves the body to
    // @hono/node-server's direct read; Hono's middleware would first turn it into a web stream. Chunked bodies are
    // counted as they come.
    const declared = c.req.header('Content-Length');
    if (declared === undefined || c.req.header('Transfer-Encoding') !== undefined) return limit(c, next);
    return Number(declared) > MAX_BODY_BYTES ? tooLarge(c) : next();
  });
  // A NUL in the path or query can match no resource, and PostgreSQL refuses it in text: say so before any SQL.
  app.use(async (c, next) => {
    if (c.req.url.includes('%00')) throw new ProblemError(400, 'The URL must not contain NUL characters (%00).');
    await next();
  });
  app.route('/api/v2/oauth', oauthRoutes(services));
  app.route('/api/paymentLink', paymentLinkRoutes(services));
  app.route('/api/refund', refundRoutes(services));
  app.route('/api/checkout', checkoutRoutes(services));
  app.route('/api/payments', paymentRoutes(services));
  app.route('/api/webhooks', webhookRoutes(services));
  app.route('/sandbox', sandboxRoutes(services));
  app.route('/', assetRoutes(services));
  app.route('/', openApiRoutes());
  app.notFound((c) => problemResponse(c, new ProblemError(404, `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    const problem = asProblem(error) ?? (error instanceof HTTPException && error.status < 500 ? new ProblemError(error.status, error.message) : undefined);
    if (problem) return problemResponse(c, problem);
    console.error(error);
    return problemResponse(c, new ProblemError(500, 'The gateway failed to handle this request.'));
  });
  return app;
}
