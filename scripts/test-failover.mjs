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
//   node scripts/test-failover.mjs --auto-failover
//       pg_auto_failover (a monitor and two nodes, docs/operations.md "Going live"): the gateways on the URI
//       `pg_autoctl show uri` prints, unchanged; `pg_autoctl perform failover`, then the primary's node killed (SIGKILL
//       to its pg_autoctl and postgres) and the monitor left to promote the other; the same assertions, and how long
//       writes stopped (npm run test:auto-failover); with --default-health-checks, on the monitor's defaults
/* global fetch, AbortController, AbortSignal, TextDecoderStream, URLSearchParams */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import { promisify } from 'node:util';
import canonicalize from 'canonicalize';
import pg from 'pg';
import { freePort } from './free-port.mjs';
import { postgresBin } from './postgres.mjs';

const ASYNC = process.argv.includes('--async');
const AUTO = process.argv.includes('--auto-failover');
const DEFAULT_HEALTH_CHECKS = process.argv.includes('--default-health-checks');
/** Load per order, and when in it the switch happens (the second step follows the first after GAP_MS). */
const LOAD_MS = 20_000;
const SWITCH_AT_MS = 7_000;
const GAP_MS = 1_000;
const WORKERS = 6;
const STREAMS = 80;
/** The monitor needs the health checks below to see a primary gone, and then promotes: seconds, not one. */
const MAX_FAILING_MS = AUTO ? (DEFAULT_HEALTH_CHECKS ? 90_000 : 20_000) : 5_000;
/** How long a client keeps sending one request again (same Idempotency-Key) before it gives up. */
const GIVE_UP_MS = AUTO ? (DEFAULT_HEALTH_CHECKS ? 120_000 : 30_000) : 15_000;
/**
 * The monitor's health checks (docs/operations.md, "Going live"), in milliseconds: a node is checked every second, a
 * check gives up after one, is tried once more half a second later, and a node silent for two seconds that fails them is
 * unhealthy; a primary that cannot be told to demote itself is taken as demoted after three. The defaults (5 s, 5 s,
 * 2 retries, 2 s, 20 s, 30 s) make a lost primary's failover take about 50 s.
 */
const HEALTH_CHECKS = DEFAULT_HEALTH_CHECKS ? {} : {
  'pgautofailover.health_check_period': 1_000,
  'pgautofailover.health_check_timeout': 1_000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 2_000,
  'pgautofailover.primary_demote_timeout': 3_000,
};

const SANDBOX = { clientId: 'sandbox_client', clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz', merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0' };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const asRoot = process.getuid?.() === 0;

/** Everything started, stopped in reverse order however the run ends. */
const cleanups = [];
async function cleanUp(keep = 0) {
  while (cleanups.length > keep) await cleanups.pop()().catch((error) => console.error(`cleanup: ${error.message}`));
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
    orders: ['promote first', 'stop first'],
    steps(order) {
      const promote = ['promoted', () => sh(`${bin}/pg_ctl -D ${standby} -w promote >/dev/null`)];
      const stopPrimary = ['old primary stopped', () => stop(primary)];
      return order === 'promote first' ? [promote, stopPrimary] : [stopPrimary, promote];
    },
    newPrimaryUrl: () => url(standbyPort),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// pg_auto_failover: a monitor and two nodes on loopback, as docs/operations.md has the operator make them. pg_autoctl
// refuses root: as root it runs as postgres (as initdb does above).

async function autoFormation(bin) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'pay-checkout-auto-failover-'));
  chmodSync(dir, 0o777);
  const env = { PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share') };
  const argv = (args) => (asRoot ? ['runuser', '-u', 'postgres', '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'pg_autoctl', ...args] : ['pg_autoctl', ...args]);
  const options = { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' };
  const autoctl = (...args) => {
    const [command, ...rest] = argv(args);
    const result = spawnSync(command, rest, options);
    if (result.status !== 0) throw new Error(`pg_autoctl ${args.join(' ')}\n${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  // Asked during the load, which a blocking spawn would stop.
  const autoctlAsync = async (...args) => {
    const [command, ...rest] = argv(args);
    return (await promisify(execFile)(command, rest, options)).stdout;
  };
  const running = new Map();
  /** `pg_autoctl run` in a process group of its own, so that killing the group takes its postgres with it. */
  const run = (name) => {
    const child = spawn(...(([command, ...rest]) => [command, rest])(argv(['run', '--pgdata', join(dir, name)])), { ...options, detached: true, stdio: ['ignore', 'ignore', 'ignore'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    running.set(name, { child, exited });
  };
  const kill = async (name) => {
    const { child, exited } = running.get(name);
    running.delete(name);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  };
  cleanups.push(async () => {
    for (const name of [...running.keys()].reverse()) await kill(name);
    // A killed postgres's children may still be writing their last files for a moment.
    rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
  });

  const ports = { monitor: await freePort(), node1: await freePort(), node2: await freePort() };
  const loopback = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];
  autoctl('create', 'monitor', '--pgdata', join(dir, 'monitor'), '--pgport', String(ports.monitor), ...loopback);
  // The monitor listens on every address by default: loopback only here.
  appendFileSync(
    join(dir, 'monitor', 'postgresql.auto.conf'),
    `listen_addresses = '127.0.0.1'\n` + Object.entries(HEALTH_CHECKS).map(([name, value]) => `${name} = ${value}\n`).join(''),
  );
  run('monitor');
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
  /** The nodes as the monitor has them; a node is in a state once its assigned and current states agree. */
  const state = async () => {
    const nodes = JSON.parse(await autoctlAsync('show', 'state', '--pgdata', join(dir, 'monitor'), '--json'));
    return nodes.map((n) => ({ name: n.nodename, port: n.nodeport, state: n.current_group_state === n.assigned_group_state ? n.current_group_state : 'changing' }));
  };
  const until = async (what, test, ms = 120_000) => {
    let last;
    for (const end = Date.now() + ms; Date.now() < end; await pause(200)) {
      last = await state().catch((error) => error.message);
      if (typeof last !== 'string' && test(last)) return last;
    }
    throw new Error(`pg_auto_failover: no ${what} within ${ms} ms: ${JSON.stringify(last)}`);
  };
  const primaryOf = (nodes) => nodes.find((n) => ['primary', 'wait_primary', 'single'].includes(n.state));

  for (const name of ['node1', 'node2']) {
    autoctl('create', 'postgres', '--pgdata', join(dir, name), '--pgport', String(ports[name]), '--listen', '127.0.0.1', '--name', name, '--monitor', monitorUrl, ...loopback);
    // The test's own speed-up, as the other mode's clusters have it (node2 is a base backup of node1: it has it too).
    if (name === 'node1') appendFileSync(join(dir, name, 'postgresql.auto.conf'), 'fsync = off\n');
    run(name);
    if (name === 'node1') await until('single node1', (nodes) => nodes[0]?.state === 'single');
  }
  await until('primary and secondary', (nodes) => nodes.some((n) => n.state === 'primary') && nodes.some((n) => n.state === 'secondary'));
  const gatewayUrl = autoctl('show', 'uri', '--formation', 'default', '--pgdata', join(dir, 'monitor')).trim();
  console.log(`pg_auto_failover: a monitor and two nodes in ${Math.round((Date.now() - started) / 1000)} s; the gateways' DATABASE_URL: ${gatewayUrl}`);
  let primary = primaryOf(await state());
  return {
    dir,
    gatewayUrl,
    // The URI names no user (libpq's PGUSER gives it); the gateway runs as root in CI, which has no role.
    env: { PGUSER: 'postgres' },
    orders: ['perform failover', 'kill the primary'],
    steps(order) {
      const old = primary;
      const promoted = ['new primary', async () => (primary = primaryOf(await until('new primary', (nodes) => primaryOf(nodes) && primaryOf(nodes).name !== old.name)))];
      if (order === 'perform failover') return [['failover asked', () => autoctlAsync('perform', 'failover', '--pgdata', join(dir, 'monitor'))], promoted];
      return [['primary killed', () => kill(old.name)], promoted];
    },
    // The next order starts on a formation of two again (the old primary back as the secondary) and on an empty
    // database, at the same URI: the checks count the whole database.
    async settle() {
      await until('secondary again', (nodes) => nodes.some((n) => n.state === 'secondary') && primaryOf(nodes));
      const db = new pg.Client({ connectionString: this.newPrimaryUrl() });
      await db.connect();
      await db.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
      await db.end();
    },
    newPrimaryUrl: () => `postgres://postgres@127.0.0.1:${primary.port}/postgres`,
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

async function run(cluster, order) {
  // What this order starts is stopped at its end; the cluster may serve the next order (pg_auto_failover's does).
  const keep = cleanups.length;
  const logOf = (name) => join(cluster.dir, `gateway-${name}-${order.replaceAll(' ', '-')}.log`);
  const receiver = await startReceiver();
  const env = {
    ...cluster.env,
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
  for (const name of ['a', 'b']) gateways.push(await startGateway(env, logOf(name)));
  const t0 = Date.now();
  const loadAtStart = loadavg()[0];
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
    const steps = cluster.steps(order);
    for (const [name, step] of steps) {
      marks[`${name} (start)`] = Date.now() - t0;
      await step();
      marks[name] = Date.now() - t0;
      // The manual switch's second step comes a second after the first; the monitor's promotion is waited for.
      if (!AUTO && step === steps[0][1]) await pause(GAP_MS);
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
  const upAt = Math.max(...Object.values(marks));

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
  const db = new pg.Client({ connectionString: cluster.newPrimaryUrl() });
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
  const switchedAt = marks[Object.keys(marks)[0]];
  const before = ok.filter((a) => a.ended < switchedAt).length;
  // How long no write was acknowledged: the longest gap between two, from the last one before the switch on.
  const writes = ok.filter((a) => ['link', 'payment', 'transfer', 'refund'].includes(a.op)).map((a) => a.ended).sort((a, b) => a - b);
  let writesStopped = 0;
  for (let i = Math.max(1, writes.findIndex((t) => t >= switchedAt)); i > 0 && i < writes.length; i++) writesStopped = Math.max(writesStopped, writes[i] - writes[i - 1]);

  const figures = {
    order,
    replication: ASYNC ? 'asynchronous' : 'synchronous',
    switch_ms: marks,
    ...(AUTO && { health_checks_ms: HEALTH_CHECKS }),
    writes_stopped_ms: writesStopped,
    load_average: [loadAtStart, loadavg()[0]].map((n) => Math.round(n * 10) / 10),
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
      const lines = readFileSync(logOf(name), 'utf8').trim().split('\n').slice(-15).map((line) => line.slice(0, 400));
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
  await cleanUp(keep);
  return problems;
}

const bin = postgresBin();
if (!bin) {
  console.error('test-failover: PostgreSQL is not installed (initdb, pg_ctl, pg_basebackup): apt-get install postgresql');
  process.exit(1);
}
if (AUTO && !spawnSync('sh', ['-c', 'command -v pg_autoctl'], { encoding: 'utf8' }).stdout.trim()) {
  console.error('test-failover: pg_autoctl is not installed: apt-get install postgresql-15-auto-failover pg-auto-failover-cli');
  process.exit(1);
}
let failed = false;
try {
  if (AUTO) {
    // One formation for both orders: after `perform failover` the old primary comes back as the secondary.
    const formation = await autoFormation(bin);
    for (const order of formation.orders) {
      if (order !== formation.orders[0]) await formation.settle();
      const problems = await run(formation, order);
      for (const problem of problems) console.error(`FAIL (${order}): ${problem}`);
      failed ||= problems.length > 0;
    }
  } else {
    for (const order of ['promote first', 'stop first']) {
      const problems = await run(await clusterPair(bin), order);
      for (const problem of problems) console.error(`FAIL (${order}): ${problem}`);
      failed ||= problems.length > 0;
      await cleanUp();
    }
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
