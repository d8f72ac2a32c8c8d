// The baseline: Hono's hello world on @hono/node-server, started the same way as the gateway.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { announce } from './announce.js';

const app = new Hono().get('/', (c) => c.text('Hello Hono!'));
const server = await new Promise<Server>((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
});
announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => new Promise((resolve) => server.close(() => resolve())));
