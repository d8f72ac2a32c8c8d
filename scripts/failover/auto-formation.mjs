// pg_auto_failover for scripts/test-failover.mjs --auto-failover: a monitor and two nodes on loopback, as
// docs/operations.md has the operator make them; the switch is `pg_autoctl perform failover`, or the primary killed
// and the monitor left to promote the other.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../free-port.mjs';
import { asRoot } from './cluster-pair.mjs';
import { onCleanUp } from './cleanups.mjs';
import { HEALTH_CHECKS } from './mode.mjs';

export async function autoFormation(bin) {
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
  onCleanUp(async () => {
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
