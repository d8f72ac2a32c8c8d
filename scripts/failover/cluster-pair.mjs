// Two clusters on loopback for scripts/test-failover.mjs: a primary, and a standby made from it by pg_basebackup -R,
// streaming (synchronously unless --async); the switch is the operator's (docs/operations.md): promote, stop.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../free-port.mjs';
import { onCleanUp } from './cleanups.mjs';
import { ASYNC } from './mode.mjs';

/** initdb and pg_ctl refuse root: as root they run as postgres (and so does pg_autoctl, auto-formation.mjs). */
export const asRoot = process.getuid?.() === 0;

export async function clusterPair(bin) {
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
  onCleanUp(async () => {
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
