// Each migration a start applies is one info line naming it and how long it took (docs/operations.md, "Upgrade"); a
// start with nothing to apply says nothing of migrations. The same code runs on either store: PGlite only.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { log } from '../../src/sandbox/logging.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { migrate, migrationNames } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';

describe('the log of the migrations applied', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
  });
  after(() => db.close());

  /** The migrations `migrate` said it applied, in the order it said them. */
  async function logged(names?: readonly string[]): Promise<string[]> {
    const info = mock.method(log, 'info', () => undefined);
    try {
      await migrate(db, names);
      return info.mock.calls
        .map((call) => call.arguments as unknown[])
        .filter(([, msg]) => msg === 'migrations: applied')
        .map(([entry]) => {
          const { migration, ms } = entry as { migration: string; ms: number };
          assert.ok(Number.isInteger(ms) && ms >= 0, `ms of ${migration}: ${ms}`);
          return migration;
        });
    } finally {
      info.mock.restore();
    }
  }

  it('logs one line per migration applied, in order, and none when there is nothing to apply', async () => {
    const all = await migrationNames();
    // An upgrade: a database at an older release first, then the rest.
    const older = all.slice(0, 20);
    assert.deepEqual(await logged(older), older);
    assert.deepEqual(await logged(), all.slice(20));
    assert.deepEqual(await logged(), []);
  });
});
