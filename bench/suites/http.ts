// The merchant and checkout APIs' hot endpoints against their floor: a bare node:http server running the gateway's own
// statements (bench/servers/floor.ts) on a copy of the gateway's database. The machine may be shared and its load
// drifts, so every server runs side by side and each case goes gateway, floor, gateway, floor... in short rounds: the
// figure is the median of the rounds' ratios, with the load average beside it. Refund listing is measured with 1,000
// links in the table and with 100,000 (seeded in SQL), in the same rounds.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { sampleLink } from '../../test/helpers/gateway.js';
import { signedLinkBody as signedBody } from '../../test/helpers/merchant-api.js';
import { mine, openPayment, payInFull, sandboxMerchant } from '../lib/gateway-client.js';
import { fmt, round, summarize, type Cell, type Table } from '../lib/report.js';
import { growOrdersTo } from '../lib/seed.js';
import { startServer, type ServerProcess } from '../lib/server-process.js';
import type { Database, Storage } from '../lib/storage.js';
import { forEachStorage, gatewaySuite } from '../lib/suite.js';

const ROUNDS = 5;
/** Seconds per case, server and round. */
const DURATION_S = 3;
const CONNECTIONS = 25;
/** Requests sent first in the first round and not counted: JIT, pools, prepared statements and caches warm up. */
const WARMUP_REQUESTS = 300;
/** Signed bodies made before the clock starts, for the gateway and its floor; more are signed on the fly if needed. */
const PRESIGNED_BODIES = 100_000;
const REFUNDS_ON_ORDER = 3;
const FEW_LINKS = 1_000;
const MANY_LINKS = 100_000;
/** Refund listing with MANY_LINKS keeps at least this share of its rate with FEW_LINKS. */
const GROWTH_TARGET = 0.9;
/** autocannon stops at the bell with requests still in flight: let them finish before anything else runs. */
const DRAIN_MS = 1_000;

type Target = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'requests'>;

interface HttpCase {
  name: string;
  /** The least gateway/floor ratio wanted on PostgreSQL. */
  target: number;
  request(baseUrl: string): Target;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx, as `code×count`; a floor with any has measured something else. */
  non2xx: string;
  errors: number;
  /** One-minute load average when the measurement began. */
  load: number;
}

async function cannon(target: Target, warmedUp = false): Promise<Measured> {
  if (!warmedUp) await autocannon({ ...target, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
  const load = loadavg()[0]!;
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_S });
  await new Promise((r) => setTimeout(r, DRAIN_MS));
  const non2xx = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${code}×${s.count ?? 0}`)
    .join(' ');
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx, errors: result.errors, load };
}

async function withServer<T>(name: 'gateway' | 'floor' | 'hello', env: Record<string, string>, fn: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await startServer(name, env);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

async function growTo(database: Database, templateRef: string, links: number): Promise<void> {
  const sql = await database.open();
  try {
    await growOrdersTo(sql, templateRef, links);
  } finally {
    await sql.close();
  }
}

/** A paid order with refunds, and a link with an open payment, made through the API as merchants and customers do. */
async function prepareOrders(database: Database): Promise<{ paidRef: string; paidOrderId: string; openRef: string; token: string }> {
  return withServer('gateway', database.env, async (gateway) => {
    const merchant = sandboxMerchant(gateway.url);
    const paid = await openPayment(gateway.url, merchant);
    await payInFull(gateway.url, paid.payment);
    await mine(gateway.url, paid.payment.confirmations_required);
    for (let i = 0; i < REFUNDS_ON_ORDER; i++) {
      await merchant.createRefund(paid.orderId, { amount: 50_000, channel: 'PROVIDER', description: `bench refund ${i + 1}`, refund_type: 'partial', refund_reason: 'bench' });
    }
    const { refundDetails } = await merchant.getRefunds(paid.orderId);
    if (refundDetails.length !== REFUNDS_ON_ORDER) throw new Error(`expected ${REFUNDS_ON_ORDER} refunds on ${paid.orderId}, the gateway lists ${refundDetails.length}`);
    const open = await openPayment(gateway.url, merchant);
    const { access_token } = await merchant.issueToken();
    return { paidRef: paid.ref, paidOrderId: paid.orderId, openRef: open.ref, token: access_token };
  });
}

/** A payment link request as the SDK sends it: distinct order id, signed. */
const signedLinkBody = (): string => JSON.stringify(signedBody(SANDBOX_DEFAULTS, sampleLink()));

const pair = (a: Cell, b: Cell): string => `${a ?? '—'} / ${b ?? '—'}`;
const median = (values: number[]): number => summarize(values).p50;
const verdict = (value: number, target: number | undefined): Cell[] =>
  target === undefined ? ['—', '—'] : [`≥ ${target}`, value >= target ? 'pass' : 'FAIL'];

/** One case on one table size: a gateway and its floor, each on its own copy of the database. */
interface Pairing {
  case: HttpCase;
  links: number;
  gateway: ServerProcess;
  floor: ServerProcess;
  rounds: { gateway: Measured; floor: Measured }[];
}

export const httpSuite = gatewaySuite({
  id: 'http',
  title: 'Merchant and checkout API against the floor',
  async run({ storages }, notes) {
    const versus: Table = {
      title: `Gateway / floor: autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per server and case after ${WARMUP_REQUESTS} warm-up requests; medians of the rounds; targets on PostgreSQL`,
      columns: ['case', 'storage', 'links', 'gateway req/s', 'p50 / p99 ms', 'floor req/s', 'p50 / p99 ms', 'ratio', 'per round', 'target', 'meets', 'load'],
      rows: [],
    };
    const growth: Table = {
      title: `Refund listing as links grow: req/s with ${MANY_LINKS.toLocaleString('en-US')} links over req/s with ${FEW_LINKS.toLocaleString('en-US')}, per round (the same rounds as above)`,
      columns: ['storage', `gateway ${FEW_LINKS / 1000}k req/s`, `gateway ${MANY_LINKS / 1000}k req/s`, 'ratio', 'per round', 'target', 'meets', 'floor ratio'],
      rows: [],
    };

    const hello = await withServer('hello', {}, (server) => cannon({ url: `${server.url}/` }));
    notes.push(`For scale: Hono's hello world on @hono/node-server, started the same way, answers ${fmt(hello.rps, 0)} req/s (p99 ${fmt(hello.p99, 0)} ms, load ${fmt(hello.load, 2)}).`);

    const bodies = Array.from({ length: PRESIGNED_BODIES }, signedLinkBody);
    let used = 0;
    const createLinks: HttpCase = {
      name: 'POST /api/paymentLink',
      target: 0.6,
      request: (url) => ({
        url,
        requests: [
          {
            method: 'POST',
            path: '/api/paymentLink',
            setupRequest: (request) => ({
              ...request,
              headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
              body: bodies[used++] ?? signedLinkBody(),
            }),
          },
        ],
      }),
    };

    await forEachStorage(storages, notes, async (storage: Storage) => {
      const databases: Database[] = [];
      const servers: ServerProcess[] = [];
      const copy = async (of: Database) => {
        databases.push(await of.copy());
        return databases.at(-1)!;
      };
      const start = async (name: 'gateway' | 'floor', database: Database) => {
        servers.push(await startServer(name, database.env));
        return servers.at(-1)!;
      };
      try {
        const few = await storage.fresh({ reopenable: true });
        databases.push(few);
        const orders = await prepareOrders(few);
        await growTo(few, orders.paidRef, FEW_LINKS);
        const many = await copy(few);
        await growTo(many, orders.paidRef, MANY_LINKS);
        const listRefunds: HttpCase = {
          name: `GET /api/refund/getDataByTransaction (${REFUNDS_ON_ORDER} refunds)`,
          target: 0.6,
          request: (url) => ({ url: `${url}/api/refund/getDataByTransaction/${encodeURIComponent(orders.paidOrderId)}`, headers: { authorization: `Bearer ${orders.token}` } }),
        };
        const viewCheckout: HttpCase = {
          name: 'GET /api/checkout/{ref} (open payment)',
          target: 0.7,
          request: (url) => ({ url: `${url}/api/checkout/${orders.openRef}` }),
        };
        // PGlite's folder belongs to one process: each floor gets a copy; link creation runs on the large table only.
        const [fewFloor, manyFloor] = [await copy(few), await copy(many)];
        const onFew = { links: FEW_LINKS, gateway: await start('gateway', few), floor: await start('floor', fewFloor) };
        const onMany = { links: MANY_LINKS, gateway: await start('gateway', many), floor: await start('floor', manyFloor) };
        const pairings: Pairing[] = [
          { case: listRefunds, ...onFew, rounds: [] },
          { case: listRefunds, ...onMany, rounds: [] },
          { case: viewCheckout, ...onFew, rounds: [] },
          { case: createLinks, ...onMany, rounds: [] },
        ];
        for (let round = 0; round < ROUNDS; round++) {
          for (const p of pairings) {
            const gateway = await cannon(p.case.request(p.gateway.url), round > 0);
            const floor = await cannon(p.case.request(p.floor.url), round > 0);
            p.rounds.push({ gateway, floor });
          }
        }
        for (const p of pairings) {
          const ratios = p.rounds.map((r) => r.gateway.rps / r.floor.rps);
          const of = (who: 'gateway' | 'floor', key: 'rps' | 'p50' | 'p99' | 'load') => median(p.rounds.map((r) => r[who][key]));
          versus.rows.push([
            p.case.name,
            storage.name,
            p.links,
            round(of('gateway', 'rps'), 0),
            pair(round(of('gateway', 'p50'), 0), round(of('gateway', 'p99'), 0)),
            round(of('floor', 'rps'), 0),
            pair(round(of('floor', 'p50'), 0), round(of('floor', 'p99'), 0)),
            round(median(ratios), 2),
            ratios.map((r) => r.toFixed(2)).join(' '),
            ...verdict(median(ratios), storage.name === 'PostgreSQL' ? p.case.target : undefined),
            round(of('gateway', 'load'), 1),
          ]);
          for (const [i, r] of p.rounds.entries()) {
            for (const who of ['gateway', 'floor'] as const) {
              const m = r[who];
              if (m.non2xx || m.errors) notes.push(`${storage.name}, ${p.case.name}, ${who}, round ${i + 1}: ${m.non2xx || 'no'} non-2xx answers, ${m.errors} errors.`);
            }
          }
        }
        const [few1k, many100k] = [pairings[0]!, pairings[1]!];
        const growthOf = (who: 'gateway' | 'floor') => few1k.rounds.map((r, i) => many100k.rounds[i]![who].rps / r[who].rps);
        growth.rows.push([
          storage.name,
          round(median(few1k.rounds.map((r) => r.gateway.rps)), 0),
          round(median(many100k.rounds.map((r) => r.gateway.rps)), 0),
          round(median(growthOf('gateway')), 2),
          growthOf('gateway').map((r) => r.toFixed(2)).join(' '),
          ...verdict(median(growthOf('gateway')), storage.name === 'PostgreSQL' ? GROWTH_TARGET : undefined),
          round(median(growthOf('floor')), 2),
        ]);
      } finally {
        for (const server of servers) await server.stop();
        for (const database of databases) await database.drop();
      }
    });
    if (used > PRESIGNED_BODIES) notes.push(`POST /api/paymentLink used ${used} bodies: ${used - PRESIGNED_BODIES} were signed during the run, on the load side.`);
    notes.push(
      'POST /api/paymentLink sends what the SDK sends: a signed body with a fresh merchant_order_id and its own Idempotency-Key.',
    );
    notes.push(
      "Each floor runs the gateway's own statements, through its storage functions: per request the one statement the gateway runs " +
        "once warm (the link's facts; the order's links and refunds; the order's first link with the key's answer), the token's and the " +
        "key's merchant read once and kept, as the gateway keeps them. It answers the statement's text and leaves out everything else: " +
        'the framework, the checks (signature, schema, rules, limits), deriving and rendering the answer, logs and metrics. ' +
        "On PGlite the floor runs PGlite in its own process as the gateway does, its statements prepared once by name (PGlite's query() " +
        'parses and describes every time); no targets there.',
    );
    notes.push(
      `The ${(MANY_LINKS / 1000).toFixed(0)}k rows are copies of the paid order (link, payment, refund) made in SQL; the table sizes are the rows before each phase (link creation adds its own).`,
    );
    return [versus, growth];
  },
});
