// A throwaway PostgreSQL cluster on loopback, for the test suite's second pass and for the benchmarks.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './free-port.mjs';

/** initdb, pg_ctl and their siblings (pg_basebackup) from PATH, followed to their folder, or Debian's versioned folder. */
export function postgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return dirname(realpathSync(onPath));
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

/** A throwaway cluster as the postgres user (initdb refuses root), trust auth on loopback only. */
export async function startPostgres(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'pay-checkout-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const sh = (command) => {
    const argv = asRoot ? ['runuser', '-u', 'postgres', '--', 'sh', '-c', command] : ['sh', '-c', command];
    const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command}\n${result.stdout}${result.stderr}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  sh(`${bin}/initdb -D ${data} -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null`);
  sh(`${bin}/pg_ctl -D ${data} -l ${join(dir, 'log')} -w -o "-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=300" start >/dev/null`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        sh(`${bin}/pg_ctl -D ${data} -m immediate stop >/dev/null`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

