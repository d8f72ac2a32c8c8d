// GET /openapi.json: the gateway's OpenAPI 3.1 document (src/sandbox/openapi/), with this gateway as its server.
// CORS open, so that an API explorer on another origin can load it.
import { Hono } from 'hono';
import { openApiDocument } from '../openapi/document.js';

export function openApiRoutes(): Hono {
  const documents = new Map<string, string>();
  return new Hono().get('/openapi.json', (c) => {
    const origin = new URL(c.req.url).origin;
    let document = documents.get(origin);
    if (!document) documents.set(origin, (document = JSON.stringify(openApiDocument(origin))));
    return c.body(document, 200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' });
  });
}
