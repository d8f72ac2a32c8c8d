// For those who run the gateway (docs/operations.md, "Observe"): liveness, readiness and metrics. Not for browsers:
// no CORS. A load balancer sends traffic while /readyz is 200; an orchestrator restarts a process whose /healthz fails.
// The metrics tell every merchant's payments by status: METRICS_TOKEN and METRICS_PORT keep them from the public.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { ProblemError, problemResponse, unauthorized } from '../http/problem.js';
import type { Services } from '../services.js';
import { media, route, type RouteGroup } from './route.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in a time that tells nothing of the token, its length included. */
function bearsToken(c: Context, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics as `config.metrics` says: behind its token when one is set; on the main port (`onOwnPort` false) a
 * 404 like any unknown path when it has a listener of its own (server.ts).
 */
export function metricsHandler({ metrics, config }: Pick<Services, 'metrics' | 'config'>, onOwnPort: boolean) {
  const { token, port } = config.metrics ?? {};
  return async (c: Context): Promise<Response> => {
    if (!onOwnPort && port !== undefined) return problemResponse(c, new ProblemError(404, `No route for ${c.req.method} ${c.req.path}.`));
    if (token !== undefined && !bearsToken(c, token)) {
      return problemResponse(
        c,
        unauthorized('The metrics need the token the gateway was started with: Authorization: Bearer <METRICS_TOKEN>.', { 'WWW-Authenticate': 'Bearer realm="metrics"' }),
      );
    }
    return c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType, ...NO_STORE });
  };
}

export const operationsRoutes: RouteGroup<Pick<Services, 'health' | 'metrics' | 'config'>> = {
  routes: [
    route(
      'get',
      '/healthz',
      { tag: 'Operations', summary: 'Liveness: the process runs and answers', ok: { 200: media('application/json', '`{"status":"ok"}`.') } },
      () => (c) => c.json({ status: 'ok' }, 200, NO_STORE),
    ),
    route(
      'get',
      '/readyz',
      {
        tag: 'Operations',
        summary: 'Readiness: whether to send this process traffic',
        ok: {
          200: media(
            'application/json',
            '`{ready, stopping, checks: {database, migrations, data_key}, networks: [{network, available, height, synced_at, lag_seconds}]}`; ' +
              'the same body with 503 when not ready (a check failed, or the process is stopping). A network that lags fails only itself.',
          ),
        },
      },
      ({ health }) =>
        async (c) => {
          const readiness = await health.readiness();
          return c.json(readiness, readiness.ready ? 200 : 503, NO_STORE);
        },
    ),
    route(
      'get',
      '/metrics',
      {
        tag: 'Operations',
        summary: 'Metrics in the Prometheus text format: with METRICS_TOKEN set, `Authorization: Bearer <token>` (else 401); with METRICS_PORT set, only on that port (404 here)',
        ok: { 200: media('text/plain', 'Prometheus text format 0.0.4.') },
        errors: [401, 404],
      },
      (services) => metricsHandler(services, false),
    ),
  ],
};
