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
//
// The parts: failover/mode.mjs (the flags and figures), cluster-pair.mjs and auto-formation.mjs (the databases and
// their switch), gateways.mjs (the gateways, the webhook receiver), clients.mjs (the merchant through the SDK, the
// customers), load.mjs (the load), checks.mjs (what the new primary holds, the figures and the verdict).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { autoFormation } from './failover/auto-formation.mjs';
import { check } from './failover/checks.mjs';
import { cleanUp, onCleanUp, registeredCleanUps } from './failover/cleanups.mjs';
import { clients } from './failover/clients.mjs';
import { clusterPair } from './failover/cluster-pair.mjs';
import { startGateway, startReceiver } from './failover/gateways.mjs';
import { load } from './failover/load.mjs';
import { AUTO } from './failover/mode.mjs';
import { postgresBin } from './postgres.mjs';

/** One order of the switch: its gateways and load on `cluster`, the figures printed, the problems answered. */
async function run(cluster, order) {
  // What this order starts is stopped at its end; the cluster may serve the next order (pg_auto_failover's does).
  const keep = registeredCleanUps();
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
  const loaded = await load(api, gateways, cluster, order, t0);

  // On the new primary: what was acknowledged, what was announced.
  const db = new pg.Client({ connectionString: cluster.newPrimaryUrl() });
  await db.connect();
  onCleanUp(() => db.end());
  const { figures, problems } = await check(db, { order, loadAtStart, api, loaded, received: receiver.received });
  console.log(JSON.stringify(figures));
  if (problems.length) {
    for (const name of ['a', 'b']) {
      const lines = readFileSync(logOf(name), 'utf8').trim().split('\n').slice(-15).map((line) => line.slice(0, 400));
      console.error(`gateway ${name}, last log lines:\n${lines.join('\n')}`);
    }
  }
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
