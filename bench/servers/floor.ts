// The floor each gateway case is measured against: bare node:http doing the least SQL the same work needs, one
// prepared statement per request on the same database and schema, and a bare event stream. Started like the gateway
// (bench/lib/server-process.ts) on DATABASE_URL (a pg pool of 10, as the gateway's) or PGLITE_DIR (PGlite in this
// process, statements prepared once by name through its wire protocol); without either, only the event stream.
// Every statement answers the response body as one text column, or no row: 404.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce } from './announce.js';

interface Statement {
  name: string;
  text: string;
}

interface FloorRoute {
  method: 'GET' | 'POST';
  /** The path up to the route's one argument, which is the rest of the path. */
  prefix: string;
  statement: Statement;
  /** The statement's parameters, as text; throwing answers 400. */
  values(argument: string, request: IncomingMessage, body: string): (string | null)[];
  /** The status of an answer with a row. */
  status: number;
  headers?: Record<string, string>;
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const routes: FloorRoute[] = [
  {
    // The merchant by its key, an expired link of the order moved aside, the link (the partial unique index keeps one
    // live link per order: a second is no row, here a 404 for the gateway's 409) and the idempotency record.
    method: 'POST',
    prefix: '/api/paymentLink',
    statement: {
      name: 'create_payment_link',
      text: `WITH merchant AS (SELECT merchant_id FROM merchants WHERE svc_key_hash = $1::text),
        expired AS (
          UPDATE payment_links l SET status = 'expired' FROM merchant m
          WHERE l.merchant_id = m.merchant_id AND l.merchant_order_id = $2::text AND l.status = 'active' AND l.expires_at <= now()),
        link AS (
          INSERT INTO payment_links (payment_link_ref, merchant_id, merchant_order_id, status, amount, currency, request, expires_at, created_at)
          SELECT $3::text, merchant_id, $2::text, 'active', $4::bigint, 'VND', $5::jsonb, now() + make_interval(hours => $6::int), now() FROM merchant
          ON CONFLICT (merchant_id, merchant_order_id) WHERE status IN ('active', 'paid') DO NOTHING
          RETURNING merchant_id, payment_link_ref),
        answer AS (SELECT merchant_id, json_build_object('payment_link_ref', payment_link_ref, 'payment_link', $7::text || payment_link_ref)::text AS body FROM link),
        idempotency AS (
          INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response)
          SELECT merchant_id, $8::text, $9::text, body::jsonb FROM answer WHERE $8::text IS NOT NULL)
        SELECT body FROM answer`,
    },
    values(_, request, body) {
      const { svc_key, signature_hash: _signature, ...link } = JSON.parse(body) as Record<string, unknown>;
      return [
        sha256(String(svc_key)),
        String(link.merchant_order_id),
        `pl_${randomBytes(16).toString('base64url')}`,
        String(link.amount),
        JSON.stringify(link),
        String(link.expiry_hours),
        'http://localhost/checkout?ref=',
        (request.headers['idempotency-key'] as string | undefined) ?? null,
        sha256(`POST /api/paymentLink ${body}`),
      ];
    },
    status: 201,
  },
  {
    // The merchant by its token, the order's links, their refunds in the order made, and what is left to refund.
    method: 'GET',
    prefix: '/api/refund/getDataByTransaction/',
    statement: {
      name: 'refunds_of_order',
      text: `WITH links AS (
          SELECT l.payment_link_ref, l.amount, l.status FROM access_tokens t JOIN payment_links l ON l.merchant_id = t.merchant_id
          WHERE t.token_hash = $1::text AND t.expires_at > now() AND l.merchant_order_id = $2::text),
        refunds AS (SELECT r.* FROM refunds r JOIN links USING (payment_link_ref))
        SELECT json_build_object(
          'amountToRefund', (SELECT coalesce(sum(amount), 0) FROM links WHERE status = 'paid')
            - (SELECT coalesce(sum(amount), 0) FROM refunds WHERE refund_status <> 'FAILED'),
          'refundDetails', (SELECT coalesce(json_agg(json_build_object(
              'refund_id', refund_id, 'psp_refund_id', coalesce(psp_refund_id, ''), 'amount', amount, 'currency', lower(currency),
              'refund_status', refund_status, 'refund_type', refund_type, 'refund_reason', refund_reason,
              'refund_date', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')) ORDER BY seq), '[]') FROM refunds))::text
        WHERE EXISTS (SELECT FROM links)`,
    },
    values: (orderId, request) => [sha256(String(request.headers.authorization).replace(/^Bearer /, '')), orderId],
    status: 200,
  },
  {
    // The link and its latest payment, as the checkout page reads them.
    method: 'GET',
    prefix: '/api/checkout/',
    statement: {
      name: 'checkout_view',
      text: `SELECT json_build_object(
          'payment_link_ref', l.payment_link_ref, 'status', l.status, 'expires_at', l.expires_at, 'merchant_order_id', l.merchant_order_id,
          'amount', l.amount, 'currency', l.currency, 'request', l.request,
          'payment', (SELECT to_jsonb(p) FROM payments p WHERE p.payment_link_ref = l.payment_link_ref ORDER BY p.seq DESC LIMIT 1))::text
        FROM payment_links l WHERE l.payment_link_ref = $1::text`,
    },
    values: (ref) => [ref],
    status: 200,
    headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
  },
];

type Run = (statement: Statement, values: (string | null)[]) => Promise<string | undefined>;

/** Drivers load only when a database is named, so the event-stream floor is node:http alone. */
async function openDatabase(): Promise<{ run: Run; close(): Promise<void> } | undefined> {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return {
      // A named query is prepared once per connection, then only bound and executed.
      run: async ({ name, text }, values) => (await pool.query<[string]>({ name, text, values, rowMode: 'array' })).rows[0]?.[0],
      close: () => pool.end(),
    };
  }
  if (process.env.PGLITE_DIR) {
    // PGlite's query() parses, describes and plans every time; named statements through its wire protocol do not.
    const [{ PGlite }, { pg_trgm }, { serialize }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('pg-protocol'),
    ]);
    // The gateway's migrations index with pg_trgm (storage/pglite.ts).
    const db = await PGlite.create({ dataDir: process.env.PGLITE_DIR, extensions: { pg_trgm } });
    for (const { name, text } of routes.map((r) => r.statement)) await db.execProtocol(Buffer.concat([serialize.parse({ name, text, types: [] }), serialize.sync()]));
    return {
      async run({ name }, values) {
        const { messages } = await db.execProtocol(Buffer.concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]));
        const row = messages.find((m) => m.name === 'dataRow') as { fields: (string | null)[] } | undefined;
        return row?.fields[0] ?? undefined;
      },
      close: () => db.close(),
    };
  }
  return undefined;
}

const database = await openDatabase();

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
  const route = database && routes.find((r) => r.method === request.method && path.startsWith(r.prefix));
  if (!route) return answer(response, 404, '{"title":"Not Found"}');
  let body = '';
  if (route.method === 'POST') for await (const chunk of request) body += chunk;
  let values: (string | null)[];
  try {
    values = route.values(decodeURIComponent(path.slice(route.prefix.length)), request, body);
  } catch {
    return answer(response, 400, '{"title":"Bad Request"}');
  }
  const found = await database.run(route.statement, values);
  if (found === undefined) answer(response, 404, '{"title":"Not Found"}');
  else answer(response, route.status, found, route.headers);
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
