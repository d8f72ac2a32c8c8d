#!/usr/bin/env node
// The database fails over under load, as docs/operations.md has the operator do it: a primary and a synchronous
// standby on loopback, two gateway processes on a multi-host DATABASE_URL, a bounded load of link creations, payment
// opens, wallet transfers, refunds and 80 event streams; mid-run the standby is promoted and the old primary stopped,
// in both orders. Then, on the new primary: every write answered 2xx is there, no order has two links, no refund is
// counted twice, every webhook names an event that exists and came once, every stream reached the latest state;
// requests failed for at most 5 s, each with a 503 (never a 500, before the new primary was up or after).
//
//   node scripts/test-failover.mjs           synchronous replication: asserts all of the above (npm run test:failover)
//   node scripts/test-failover.mjs --async   asynchronous replication: prints what was lost (npm run soak)
/* global fetch, AbortController, AbortSignal, TextDecoderStream, URLSearchParams */
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import canonicalize from 'canonicalize';
import pg from 'pg';
import { freePort } from './free-port.mjs';
import { postgresBin } from './postgres.mjs';

const ASYNC = process.argv.includes('--async');
/** Load per order, and when in it the switch happens (the second step follows the first after GAP_MS). */
const LOAD_MS = 20_000;
const SWITCH_AT_MS = 7_000;
const GAP_MS = 1_000;
const WORKERS = 6;
const STREAMS = 80;
const MAX_FAILING_MS = 5_000;
/** How long a client keeps sending one request again (same Idempotency-Key) before it gives up. */
const GIVE_UP_MS = 15_000;

const SANDBOX = { clientId: 'sandbox_client', clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz', merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0' };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const asRoot = process.getuid?.() === 0;

/** Everything started, stopped in reverse order however the run ends. */
const cleanups = [];
async function cleanUp() {
  while (cleanups.length) await cleanups.pop()().catch((error) => console.error(`cleanup: ${error.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

// ---------------------------------------------------------------------------------------------------------------
// Two clusters: a primary, and a standby made from it by pg_basebackup -R, streaming (synchronously unless --async).

async function clusterPair(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'pay-checkout-failover-'));
  chmodSync(dir, 0o777);
  const sh = (command) => {
    const argv = asRoot ? ['runuser', '-u', 'postgres', '--', 'sh', '-c', command] : ['sh', '-c', command];
    const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command}\n${result.stdout}${result.stderr}`);
  };
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const running = new Set();
  const start = (data, name) => {
    sh(`${bin}/pg_ctl -D ${data} -l ${join(dir, `${name}.log`)} -w start >/dev/null`);
    running.add(data);
  };
  const stop = (data) => {
    running.delete(data);
    sh(`${bin}/pg_ctl -D ${data} -m immediate stop >/dev/null`);
  };
  cleanups.push(async () => {
    for (const data of running) {
      try {
        stop(data);
      } catch {
        // already down
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const settings = (port, synchronousStandby) =>
    [
      `listen_addresses = '127.0.0.1'`,
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'max_connections = 200',
      // The standby confirms each commit before the primary answers it (synchronous_commit = on, the default).
      `synchronous_standby_names = '${synchronousStandby}'`,
      'synchronous_commit = on',
      // The ids the gateway's transactions learn their outcome by (txid_status) after a COMMIT went unanswered.
      'wal_level = replica',
    ].join('\n') + '\n';
  sh(`${bin}/initdb -D ${primary} -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null`);
  appendFileSync(join(primary, 'postgresql.conf'), settings(primaryPort, ASYNC ? '' : 'standby'));
  start(primary, 'primary');
  sh(`${bin}/pg_basebackup -h 127.0.0.1 -p ${primaryPort} -U postgres -D ${standby} -R -X stream -c fast --no-sync`);
  // Promoted, the standby answers at once: with nothing to replicate to, waiting for a standby would stop every write
  // (docs/operations.md: the old primary rejoins as a standby, then the new primary is made synchronous again).
  appendFileSync(
    join(standby, 'postgresql.auto.conf'),
    settings(standbyPort, '') + `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby'\n`,
  );
  start(standby, 'standby');
  const url = (port) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: url(primaryPort) });
  await admin.connect();
  const wanted = ASYNC ? 'async' : 'sync';
  for (let waited = 0; ; waited += 100) {
    const { rows } = await admin.query(`SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'`);
    if (rows[0]?.sync_state === wanted) break;
    if (waited > 20_000) throw new Error(`the standby is not streaming (${rows[0]?.sync_state ?? 'absent'})`);
    await pause(100);
  }
  await admin.end();
  return {
    dir,
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    gatewayUrl: `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write`,
    promote: () => sh(`${bin}/pg_ctl -D ${standby} -w promote >/dev/null`),
    stopPrimary: () => stop(primary),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The gateways, the webhook receiver.

async function startGateway(env, logFile) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  child.stderr.on('data', (chunk) => appendFileSync(logFile, chunk));
  let out = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    out += chunk;
    const url = /on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) {
      child.stdout.resume();
      return url;
    }
  }
  throw new Error(`a gateway exited before it listened:\n${out}${readFileSync(logFile, 'utf8')}`);
}

async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    received.push(request.headers['pay-checkout-event-id']);
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, received };
}

// ---------------------------------------------------------------------------------------------------------------
// A merchant and its customers, as clients do it: a request that fails (no answer, or a 5xx) is sent again, the same
// Idempotency-Key with it, until it is answered or GIVE_UP_MS passes. Every attempt is logged with its times.

function clients(gateways, t0) {
  const attempts = [];
  const refused = [];
  const tokens = new Map();
  async function token(base) {
    if (!tokens.has(base)) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret });
      const answer = await send(base, 'token', 'POST', '/api/v2/oauth/token', { body, form: true });
      tokens.set(base, answer.access_token);
    }
    return tokens.get(base);
  }
  /** One request, sent again while it fails; the answer's JSON, or undefined when it never succeeded. */
  async function send(base, op, method, path, { body, form, key, bearer, accept = [] } = {}) {
    const until = Date.now() + GIVE_UP_MS;
    for (;;) {
      const started = Date.now() - t0;
      let status;
      let json;
      try {
        const headers = { ...(key && { 'Idempotency-Key': key }), ...(bearer && { Authorization: `Bearer ${await token(base)}` }) };
        if (body && !form) headers['Content-Type'] = 'application/json';
        const response = await fetch(base + path, { method, headers, body: form ? body : body && JSON.stringify(body), signal: AbortSignal.timeout(GIVE_UP_MS) });
        status = response.status;
        json = await response.json().catch(() => undefined);
      } catch {
        status = 0; // no answer
      }
      attempts.push({ op, started, ended: Date.now() - t0, status });
      if (status >= 200 && status < 300) return json;
      if (accept.includes(status)) return undefined;
      if (status === 401 && bearer) tokens.delete(base);
      else if (status > 0 && status < 500) {
        // Refused: after a failover that lost writes, the order or link the client knows of may be gone.
        refused.push(`${op} ${path}: ${status} ${json?.detail ?? ''}`);
        return undefined;
      }
      if (Date.now() > until) return undefined;
      await pause(200);
    }
  }
  const pick = (i) => gateways[i % gateways.length];
  return {
    attempts,
    refused,
    async createLink(i, orderId) {
      const unsigned = {
        svc_key: SANDBOX.merchantKey,
        merchant_order_id: orderId,
        amount: 360_000,
        currency: 'VND',
        order_details: [{ id: 'sku-1', name: 'Cà phê hạt 500 g', price: 180_000, quantity: 2 }],
        success_url: 'https://shop.example/success',
        failure_url: 'https://shop.example/failure',
        expiry_hours: 24,
        source: 'api',
        description: 'Đơn hàng cà phê',
      };
      const signature_hash = createHmac('sha256', SANDBOX.clientSecret).update(canonicalize(unsigned), 'utf8').digest('base64');
      return send(pick(i), 'link', 'POST', '/api/paymentLink', { body: { ...unsigned, signature_hash }, key: `link-${orderId}` });
    },
    openPayment: (i, ref) =>
      send(pick(i), 'payment', 'POST', `/api/checkout/${ref}/payments`, { body: { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } }),
    transfer: (i, payment) =>
      send(pick(i), 'transfer', 'POST', '/sandbox/wallet/transfers', { body: { to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto } }),
    payment: (i, ref, id) => send(pick(i), 'read', 'GET', `/api/checkout/${ref}/payments/${id}`),
    refund: (i, orderId, key) =>
      send(pick(i), 'refund', 'POST', `/api/refund/createRefund/${orderId}`, {
        body: { amount: 100_000, channel: 'PROVIDER', description: 'One bag returned', refund_type: 'partial', refund_reason: 'damaged in transit' },
        key,
        bearer: true,
      }),
    mine: (i, blocks = 1) => send(pick(i), 'mine', 'POST', '/sandbox/chain/mine', { body: { blocks, network: 'TRON' } }),
    faucet: (i) => send(pick(i), 'faucet', 'POST', '/sandbox/wallet/faucet', { body: {} }),
  };
}

/** An event stream as a browser's EventSource follows it: reconnecting with Last-Event-ID whenever it ends. */
function follow(base, ref) {
  const stream = { ref, lastId: undefined, events: 0, reconnects: 0, abort: new AbortController() };
  stream.done = (async () => {
    while (!stream.abort.signal.aborted) {
      try {
        const response = await fetch(`${base}/api/checkout/${ref}/events`, {
          headers: stream.lastId ? { 'Last-Event-ID': stream.lastId } : {},
          signal: stream.abort.signal,
        });
        if (!response.ok) throw new Error(String(response.status));
        let buffer = '';
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
          buffer += chunk;
          for (let end; (end = buffer.indexOf('\n\n')) >= 0; buffer = buffer.slice(end + 2)) {
            const id = /^id: ?(.*)$/m.exec(buffer.slice(0, end))?.[1];
            if (id !== undefined) {
              stream.lastId = id;
              stream.events++;
            }
          }
        }
      } catch {
        // reconnected below
      }
      if (stream.abort.signal.aborted) break;
      stream.reconnects++;
      await pause(250);
    }
  })();
  return stream;
}

// ---------------------------------------------------------------------------------------------------------------
// One order of the switch.

async function run(bin, order) {
  const cluster = await clusterPair(bin);
  const receiver = await startReceiver();
  const env = {
    DATABASE_URL: cluster.gatewayUrl,
    SANDBOX_WEBHOOK_URL: receiver.url,
    SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1',
    DATABASE_CONNECT_TIMEOUT_MS: '2000',
    // Every customer of the load is this one client address, with 80 streams (docs/security.md, "Limits").
    LIMIT_OPENS_PER_CLIENT_PER_MINUTE: '100000',
    LIMIT_STREAMS_PER_CLIENT: '100000',
  };
  // One at a time: the first migrates, the second finds it done.
  const gateways = [];
  for (const name of ['a', 'b']) gateways.push(await startGateway(env, join(cluster.dir, `gateway-${name}.log`)));
  const t0 = Date.now();
  const api = clients(gateways, t0);
  await api.faucet(0);
  await api.faucet(1);

  const acked = { link: [], payment: [], transfer: [], refund: [] };
  const refundKeys = new Map(); // order id → refund Idempotency-Keys sent
  const lost = []; // requests never answered 2xx within GIVE_UP_MS

  // The streams' links and payments, before the load; their money comes after the switch.
  const streamed = [];
  for (let i = 0; i < STREAMS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, STREAMS - i) }, async (_, j) => {
        const orderId = `stream-${i + j}-${randomBytes(4).toString('hex')}`;
        const link = await api.createLink(i + j, orderId);
        const payment = await api.openPayment(i + j, link.payment_link_ref);
        acked.link.push(link.payment_link_ref);
        acked.payment.push(payment.payment_id);
        streamed.push({ ref: link.payment_link_ref, payment, i: i + j });
      }),
    );
  }
  const streams = streamed.map(({ ref, i }) => follow(gateways[i % 2], ref));

  const loadStart = Date.now();
  const loadEnds = loadStart + LOAD_MS;
  const marks = {};
  const switching = (async () => {
    await pause(SWITCH_AT_MS);
    const steps = order === 'promote first' ? [['promoted', cluster.promote], ['old primary stopped', cluster.stopPrimary]] : [['old primary stopped', cluster.stopPrimary], ['promoted', cluster.promote]];
    for (const [name, step] of steps) {
      marks[`${name} (start)`] = Date.now() - t0;
      step();
      marks[name] = Date.now() - t0;
      if (step === steps[0][1]) await pause(GAP_MS);
    }
  })();

  let miners = true;
  const mining = (async () => {
    for (let i = 0; miners; i++) {
      await api.mine(i);
      await pause(400);
    }
  })();

  async function worker(w) {
    for (let n = 0; Date.now() < loadEnds; n++) {
      const i = w + n;
      const orderId = `order-${w}-${n}-${randomBytes(4).toString('hex')}`;
      const link = await api.createLink(i, orderId);
      if (!link) {
        lost.push(`link ${orderId}`);
        continue;
      }
      acked.link.push(link.payment_link_ref);
      const payment = await api.openPayment(i + 1, link.payment_link_ref);
      if (!payment) {
        lost.push(`payment ${link.payment_link_ref}`);
        continue;
      }
      acked.payment.push(payment.payment_id);
      const transfer = await api.transfer(i, payment);
      if (!transfer) {
        lost.push(`transfer ${payment.payment_id}`);
        continue;
      }
      acked.transfer.push(transfer.tx_hash);
      if (n % 2) continue; // every other order is refunded, twice
      let paid = false;
      for (const until = Date.now() + 8_000; !paid && Date.now() < until; await pause(300)) {
        paid = (await api.payment(i + 1, link.payment_link_ref, payment.payment_id))?.status === 'paid';
      }
      if (!paid) continue;
      for (const k of [1, 2]) {
        const key = `refund-${orderId}-${k}`;
        refundKeys.set(orderId, [...(refundKeys.get(orderId) ?? []), key]);
        const list = await api.refund(i + k, orderId, key);
        if (!list) lost.push(`refund ${key}`);
        else acked.refund.push(list.refundDetails.at(-1).refund_id);
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await switching;
  const upAt = Math.max(marks.promoted, marks['old primary stopped']);

  // The streams' money, on the new primary: each stream must reach paid.
  await Promise.all(
    streamed.map(async ({ payment, i }) => {
      const transfer = await api.transfer(i, payment);
      if (transfer) acked.transfer.push(transfer.tx_hash);
      else lost.push(`transfer ${payment.payment_id}`);
    }),
  );
  miners = false;
  await mining;
  await api.mine(0, 4);

  // On the new primary: what was acknowledged, what was announced.
  const db = new pg.Client({ connectionString: cluster.standbyUrl });
  await db.connect();
  cleanups.push(() => db.end());
  const missing = async (table, column, values) =>
    (await db.query(`SELECT v FROM unnest($1::text[]) AS v WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${column} = v)`, [values])).rows.map((r) => r.v);
  const lostWrites = {
    links: await missing('payment_links', 'payment_link_ref', acked.link),
    payments: await missing('payments', 'payment_id', acked.payment),
    transfers: await missing('sim_transactions', 'tx_hash', acked.transfer),
    refunds: await missing('refunds', 'refund_id', acked.refund),
  };
  const twoLinks = (await db.query('SELECT merchant_order_id FROM payment_links GROUP BY merchant_order_id HAVING count(*) > 1')).rows.length;
  const refundsBy = new Map((await db.query('SELECT l.merchant_order_id AS order_id, count(*)::int AS n FROM refunds r JOIN payment_links l USING (payment_link_ref) GROUP BY 1')).rows.map((r) => [r.order_id, r.n]));
  const refundedTwice = [...refundsBy].filter(([orderId, n]) => n > (refundKeys.get(orderId)?.length ?? 0)).length;

  // Webhooks and streams settle: every delivery sent, every stream at its link's last event.
  const latest = async () =>
    new Map((await db.query('SELECT payment_link_ref AS ref, max(event_id)::text AS id FROM payment_events WHERE payment_link_ref = ANY($1) GROUP BY 1', [streamed.map((s) => s.ref)])).rows.map((r) => [r.ref, r.id]));
  let behind = [];
  for (const until = Date.now() + (ASYNC ? 15_000 : 45_000); Date.now() < until; await pause(250)) {
    const last = await latest();
    behind = streams.filter((s) => s.lastId !== last.get(s.ref));
    const pending = Number((await db.query(`SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'`)).rows[0].count);
    if (!behind.length && !pending) break;
  }
  for (const stream of streams) stream.abort.abort();
  await Promise.all(streams.map((s) => s.done));
  const events = new Set((await db.query('SELECT event_id FROM webhook_events').then((r) => r.rows)).map((r) => r.event_id));
  const counts = new Map();
  for (const id of receiver.received) counts.set(id, (counts.get(id) ?? 0) + 1);
  const unknownWebhooks = [...counts.keys()].filter((id) => !events.has(id)).length;
  const duplicateWebhooks = [...counts.values()].filter((n) => n > 1).length;
  const undelivered = (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`)).rows[0].n;

  // Failures as the clients saw them: how many, over which window, and the 500s after the new primary was up.
  const failed = api.attempts.filter((a) => a.status === 0 || a.status >= 500);
  const window = failed.length ? Math.max(...failed.map((a) => a.ended)) - Math.min(...failed.map((a) => a.started)) : 0;
  const all500 = api.attempts.filter((a) => a.status === 500);
  const after500 = all500.filter((a) => a.started >= upAt).length;
  const byStatus = {};
  for (const a of failed) byStatus[a.status || 'no answer'] = (byStatus[a.status || 'no answer'] ?? 0) + 1;
  const ok = api.attempts.filter((a) => a.status >= 200 && a.status < 300);
  const before = ok.filter((a) => a.ended < marks[Object.keys(marks)[0]]).length;

  const figures = {
    order,
    replication: ASYNC ? 'asynchronous' : 'synchronous',
    switch_ms: marks,
    requests: api.attempts.length,
    answered_2xx: ok.length,
    answered_2xx_before_switch: before,
    failed: failed.length,
    failed_by_status: byStatus,
    failing_window_ms: window,
    failures: failed.length ? `${Math.min(...failed.map((a) => a.started))}–${Math.max(...failed.map((a) => a.ended))} ms` : 'none',
    status_500: all500.length,
    status_500_after_new_primary_up: after500,
    never_answered: lost.length,
    refused_4xx: api.refused.length,
    acknowledged: Object.fromEntries(Object.entries(acked).map(([k, v]) => [k, v.length])),
    acknowledged_then_lost: Object.fromEntries(Object.entries(lostWrites).map(([k, v]) => [k, v.length])),
    orders_with_two_links: twoLinks,
    orders_refunded_more_than_asked: refundedTwice,
    webhooks_received: receiver.received.length,
    webhooks_for_events_that_do_not_exist: unknownWebhooks,
    webhooks_received_twice: duplicateWebhooks,
    webhook_deliveries_not_delivered: undelivered,
    streams_behind: behind.length,
    stream_reconnects: streams.reduce((n, s) => n + s.reconnects, 0),
  };
  console.log(JSON.stringify(figures));
  const logTail = () => {
    for (const name of ['a', 'b']) {
      const lines = readFileSync(join(cluster.dir, `gateway-${name}.log`), 'utf8').trim().split('\n').slice(-15).map((line) => line.slice(0, 400));
      console.error(`gateway ${name}, last log lines:\n${lines.join('\n')}`);
    }
  };
  const problems = [];
  if (!ASYNC) {
    for (const [kind, values] of Object.entries(lostWrites)) if (values.length) problems.push(`${values.length} acknowledged ${kind} missing on the new primary: ${values.slice(0, 5).join(', ')}`);
    if (twoLinks) problems.push(`${twoLinks} orders have two links`);
    if (refundedTwice) problems.push(`${refundedTwice} orders have more refunds than were asked for`);
    if (unknownWebhooks) problems.push(`${unknownWebhooks} webhooks name events that do not exist`);
    if (duplicateWebhooks) problems.push(`${duplicateWebhooks} webhooks came more than once`);
    if (undelivered) problems.push(`${undelivered} webhook deliveries not delivered`);
    if (behind.length) problems.push(`${behind.length} streams short of the latest state (${behind.slice(0, 3).map((s) => `${s.ref} at ${s.lastId}`).join(', ')})`);
    if (window > MAX_FAILING_MS) problems.push(`requests failed over ${window} ms (at most ${MAX_FAILING_MS})`);
    // A database that is switching is a 503 with Retry-After, never a 500: before the new primary is up as well.
    if (all500.length) problems.push(`${all500.length} requests answered 500, ${after500} of them after the new primary was up`);
    if (api.refused.length) problems.push(`${api.refused.length} requests refused: ${api.refused.slice(0, 5).join('; ')}`);
    if (lost.length) problems.push(`${lost.length} requests never succeeded: ${lost.slice(0, 5).join(', ')}`);
    if (!acked.refund.length || !receiver.received.length) problems.push('the load made no refunds or no webhooks: it proves nothing');
  }
  if (problems.length) logTail();
  await cleanUp();
  return problems;
}

const bin = postgresBin();
if (!bin) {
  console.error('test-failover: PostgreSQL is not installed (initdb, pg_ctl, pg_basebackup): apt-get install postgresql');
  process.exit(1);
}
let failed = false;
try {
  for (const order of ['promote first', 'stop first']) {
    const problems = await run(bin, order);
    for (const problem of problems) console.error(`FAIL (${order}): ${problem}`);
    failed ||= problems.length > 0;
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
