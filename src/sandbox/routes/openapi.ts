// GET /openapi.json: the gateway's OpenAPI 3.1 document (src/sandbox/openapi/), with this gateway as its server.
// CORS open, so that an API explorer on another origin can load it. A live gateway's lists no sandbox route. The
// document describes this route too, so the routes come in as `routesOf` (routes/index.ts), read only when the
// document is asked for.
import type { Environment } from '../../contract/index.js';
import type { Services } from '../services.js';
import { openApiDocument } from '../openapi/document.js';
import { media, route, type Declaration, type RouteGroup } from './route.js';

export const openApiRoutes = (routesOf: (environment: Environment) => Declaration[]): RouteGroup<Pick<Services, 'config'>> => ({
  routes: [
    route('get', '/openapi.json', { tag: 'Assets', summary: 'This document', ok: { 200: media('application/json', 'OpenAPI 3.1.') } }, ({ config }) => {
      const documents = new Map<string, string>();
      return (c) => {
        const origin = new URL(c.req.url).origin;
        let document = documents.get(origin);
        if (!document) documents.set(origin, (document = JSON.stringify(openApiDocument(routesOf(config.environment), origin, config.environment))));
        return c.body(document, 200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' });
      };
    }),
  ],
});
