// The floor each gateway case is measured against: bare node:http running the same statements as the gateway, on the
// same database and schema, and a bare event stream. The statements are the gateway's own, called through its storage
// functions (src/sandbox/storage/), so a change to one is measured on both sides; what the floor leaves out is the
// rest: the framework, the checks (schemas, signatures, limits), deriving and rendering the answer, logs and metrics.
// It answers the statement's text as it comes. Like the gateway it prepares each statement once by name, and keeps
// what the gateway keeps in memory (a token's merchant, a key's merchant): per request, the one statement the gateway
// runs in steady state. Started like the gateway (bench/lib/server-process.ts) on DATABASE_URL (a pg pool of 10, as
// the gateway's) or PGLITE_DIR (PGlite in this process, statements prepared through its wire protocol); without
// either, only the event stream.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomToken, sha256 } from '../../src/sandbox/secrets.js';
import type { Row, Sql } from '../../src/sandbox/storage/database.js';
import { readLinkFactsText } from '../../src/sandbox/storage/link-facts.js';
import { merchantByKeyHash } from '../../src/sandbox/storage/merchants.js';
import { insertFirstLinkOfOrder } from '../../src/sandbox/storage/payments.js';
import { readOrderRefundsText } from '../../src/sandbox/storage/refunds.js';
import { liveToken } from '../../src/sandbox/storage/tokens.js';
import { announce } from './announce.js';

/** The merchant's checkout page, as the bench's gateway names it in its link URLs. */
const CHECKOUT_URL = 'http://localhost/checkout';
const HOUR_MS = 3_600_000;

interface Answer {
  status: number;
  body: string;
}

interface FloorRoute {
  method: 'GET' | 'POST';
  /** The path up to the route's one argument, which is the rest of the path. */
  prefix: string;
  /** The answer; undefined is a 404. */
  answer(argument: string, request: IncomingMessage, body: string): Promise<Answer | undefined>;
  headers?: Record<string, string>;
}

/** What the gateway keeps of what it read once (services/merchant/tokens.ts, merchants.ts), here kept for good. */
function kept<T>(read: (key: string) => Promise<T | undefined>): (key: string) => Promise<T | undefined> {
  const values = new Map<string, T>();
  return async (key) => {
    let value = values.get(key);
    if (value === undefined && (value = await read(key)) !== undefined) values.set(key, value);
    return value;
  };
}

function routes(sql: Sql): FloorRoute[] {
  const merchantOfToken = kept(async (token) => (await liveToken(sql, sha256(token), new Date()))?.merchant_id);
  const merchantOfKey = kept(async (key) => (await merchantByKeyHash(sql, sha256(key)))?.merchant_id);
  return [
    {
      // The order's first link and the Idempotency-Key's answer, in the gateway's one statement; the body's fields
      // taken as they are (the gateway checks its signature, schema and rules first).
      method: 'POST',
      prefix: '/api/paymentLink',
      async answer(_, request, body) {
        const { svc_key, signature_hash: _signature, ...stored } = JSON.parse(body) as Record<string, unknown> & { merchant_order_id: string; amount: number; expiry_hours: number };
        const merchantId = await merchantOfKey(String(svc_key));
        if (!merchantId) return undefined;
        const now = new Date();
        const ref = randomToken('pl', 16);
        const response = { payment_link_ref: ref, payment_link: `${CHECKOUT_URL}?ref=${ref}` };
        const key = request.headers['idempotency-key'] as string | undefined;
        const link = {
          payment_link_ref: ref,
          merchant_id: merchantId,
          merchant_order_id: stored.merchant_order_id,
          amount: stored.amount,
          request: stored,
          expires_at: new Date(now.getTime() + stored.expiry_hours * HOUR_MS),
          created_at: now,
        };
        const answer = key ? { key, requestHash: sha256(`POST /api/paymentLink\n${body}`), response, at: now } : undefined;
        return (await insertFirstLinkOfOrder(sql, link, answer)) ? { status: 201, body: JSON.stringify(response) } : { status: 409, body: '{"title":"Conflict"}' };
      },
    },
    {
      // The order's links with their facts and refunds, for the token's merchant.
      method: 'GET',
      prefix: '/api/refund/getDataByTransaction/',
      async answer(orderId, request) {
        const merchantId = await merchantOfToken(String(request.headers.authorization).replace(/^Bearer /, ''));
        if (!merchantId) return undefined;
        return { status: 200, body: await readOrderRefundsText(sql, merchantId, orderId, new Date()) };
      },
    },
    {
      // The link's facts without its request, which the gateway keeps once it has shown the link.
      method: 'GET',
      prefix: '/api/checkout/',
      async answer(ref) {
        const facts = await readLinkFactsText(sql, ref, new Date(), { request: false });
        return facts === undefined ? undefined : { status: 200, body: facts };
      },
      headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
    },
  ];
}

/** A statement's values as PGlite's wire protocol takes them: text (a Date as ISO 8601, which PostgreSQL reads alike). */
const asText = (params: readonly unknown[] = []): (string | null)[] =>
  params.map((value) => (value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value)));

/** Drivers load only when a database is named, so the event-stream floor is node:http alone. */
async function openDatabase(): Promise<(Sql & { close(): Promise<void> }) | undefined> {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `s${names.size}`));
    return name;
  };
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return {
      // A named query is prepared once per connection, then only bound and executed.
      query: async <T extends Row>(text: string, params?: readonly unknown[]) => (await pool.query<T>({ name: nameOf(text), text, values: params as unknown[] })).rows,
      close: () => pool.end(),
    };
  }
  if (process.env.PGLITE_DIR) {
    // PGlite's query() parses, describes and plans every time; named statements through its wire protocol do not.
    const [{ PGlite }, { PGLITE_EXTENSIONS }, { serialize }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('../../src/sandbox/storage/pglite.js'),
      import('pg-protocol'),
    ]);
    const db = await PGlite.create({ dataDir: process.env.PGLITE_DIR, extensions: PGLITE_EXTENSIONS });
    const parsed = new Set<string>();
    return {
      async query<T extends Row>(text: string, params?: readonly unknown[]) {
        const name = nameOf(text);
        const parse = parsed.has(name) ? [] : [serialize.parse({ name, text, types: [] })];
        parsed.add(name);
        const { messages } = await db.execProtocol(
          Buffer.concat([...parse, serialize.bind({ statement: name, values: asText(params) }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        );
        const columns = (messages.find((m) => m.name === 'rowDescription') as { fields: { name: string }[] } | undefined)?.fields ?? [];
        return messages
          .filter((m) => m.name === 'dataRow')
          .map((row) => Object.fromEntries(columns.map((column, i) => [column.name, (row as unknown as { fields: (string | null)[] }).fields[i]])) as T);
      },
      close: () => db.close(),
    };
  }
  return undefined;
}

const database = await openDatabase();
const floorRoutes = database ? routes(database) : [];

/** Event streams held open: written to on connect and by one shared heartbeat. */
const streams = new Set<ServerResponse>();
const heartbeat = setInterval(() => {
  for (const stream of streams) stream.write(': keep-alive\n\n');
}, 15_000);

function answer(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = request.url?.split('?')[0] ?? '/';
  if (request.method === 'GET' && path === '/events') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write('retry: 2000\n\n');
    streams.add(response);
    response.on('close', () => streams.delete(response));
    return;
  }
  const route = floorRoutes.find((r) => r.method === request.method && path.startsWith(r.prefix));
  if (!route) return answer(response, 404, '{"title":"Not Found"}');
  let body = '';
  if (route.method === 'POST') for await (const chunk of request) body += chunk;
  const found = await route.answer(decodeURIComponent(path.slice(route.prefix.length)), request, body);
  if (found === undefined) answer(response, 404, '{"title":"Not Found"}');
  else answer(response, found.status, found.body, route.headers);
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) answer(response, 500, '{"title":"Internal Server Error"}');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, async () => {
  clearInterval(heartbeat);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database?.close();
});
