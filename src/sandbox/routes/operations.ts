// For those who run the gateway (docs/operations.md, "Observe"): liveness, readiness and metrics. Not for browsers:
// no CORS. A load balancer sends traffic while /readyz is 200; an orchestrator restarts a process whose /healthz fails.
import type { Services } from '../services.js';
import { media, route, type RouteGroup } from './route.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

export const operationsRoutes: RouteGroup<Pick<Services, 'health' | 'metrics'>> = {
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
      { tag: 'Operations', summary: 'Metrics in the Prometheus text format', ok: { 200: media('text/plain', 'Prometheus text format 0.0.4.') } },
      ({ metrics }) =>
        async (c) =>
          c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType, ...NO_STORE }),
    ),
  ],
};
