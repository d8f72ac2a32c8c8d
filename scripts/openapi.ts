// `npm run build:lib`: dist/openapi.json, the gateway's OpenAPI document as the package ships it (the gateway
// itself serves the same at GET /openapi.json, with its own address as the server).
import { mkdirSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/sandbox/openapi/document.js';
import { routesOf } from '../src/sandbox/routes/index.js';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument(routesOf('sandbox')), null, 2)}\n`);
