// A PostgreSQL backup restored (docs/operations.md, "Back up and restore"): pg_dump of the gateway's schema, more
// addresses handed out (one paid), pg_restore --clean into the same database, a start: the payments table is another
// one (address_guard's payments_oid), so every index moves past the margin, and no address comes twice; plain restarts
// go on from the next index. No marks file here: the database's identity alone finds it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { restoreScenario } from '../helpers/address-restore.js';
import { startTestGateway } from '../helpers/gateway.js';

const url = process.env.TEST_DATABASE_URL!;

/** A client tool of the newest PostgreSQL installed (at least the server's), as scripts/postgres.mjs finds initdb. */
function pgTool(name: string): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', name))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0]!, 'bin', name) : name;
}

describe('a PostgreSQL backup restored with pg_restore --clean', () => {
  const schema = `test_restore_${randomBytes(6).toString('hex')}`;
  let folder: string | undefined;
  after(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('hands out no address twice, and a plain restart goes on from the next index', async () => {
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-restore-'));
    const dump = join(folder, 'gateway.dump');
    const margin = 7;
    await restoreScenario({
      margin,
      start: () => startTestGateway({ schema, config: { addresses: { restoreMargin: margin } } }),
      backup: async () => {
        await promisify(execFile)(pgTool('pg_dump'), ['--format=custom', `--schema=${schema}`, `--file=${dump}`, `--dbname=${url}`]);
      },
      restore: async () => {
        await promisify(execFile)(pgTool('pg_restore'), ['--clean', '--if-exists', '--no-owner', `--dbname=${url}`, dump]);
      },
    });
  });
});
