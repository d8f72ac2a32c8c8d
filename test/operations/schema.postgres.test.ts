// A database upgraded one migration at a time has the schema of one made in one go, and both have the schema of the
// committed snapshot (schema.snapshot.sql beside this file): what the last release's tests ran on. Migrations are
// frozen text (src/sandbox/storage/migrate.ts), so nothing in the code can make a new database differ from an old one.
// A migration that lands changes the snapshot: `npm run schema:snapshot` writes it anew (docs/operations.md, "Upgrade").
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrate, migrationNames } from '../../src/sandbox/storage/migrate.js';
import { openPostgres } from '../../src/sandbox/storage/postgres.js';
import { dumpSchema, schemaDifference } from '../helpers/schema-dump.js';

const databaseUrl = process.env.TEST_DATABASE_URL!;
const snapshot = new URL('./schema.snapshot.sql', import.meta.url);
const migrations = new URL('../../src/sandbox/storage/migrations/', import.meta.url);

describe('schema (PostgreSQL)', () => {
  const stepwise = `schema_steps_${process.pid}`;
  const inOneGo = `schema_once_${process.pid}`;
  let admin: pg.Client;

  before(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    for (const schema of [stepwise, inOneGo]) await admin.query(`CREATE SCHEMA ${schema}`);
  });
  after(async () => {
    for (const schema of [stepwise, inOneGo]) await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  it('holds no template: a migration says what it ran as', async () => {
    const templated: string[] = [];
    for (const name of await migrationNames()) if ((await readFile(new URL(name, migrations), 'utf8')).includes('{{')) templated.push(name);
    assert.deepEqual(templated, [], `migrations with a template: ${templated.join(', ')}`);
  });

  it('is the same made a migration at a time, in one go, and in the snapshot', async (t) => {
    const names = await migrationNames();
    // As releases upgrade it: each migration by itself, on a connection of its own, committed before the next.
    for (let i = 1; i <= names.length; i++) {
      const db = await openPostgres(databaseUrl, { schema: stepwise });
      try {
        await migrate(db, names.slice(0, i));
      } finally {
        await db.close();
      }
    }
    const db = await openPostgres(databaseUrl, { schema: inOneGo });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }

    const [steps, once] = await Promise.all([dumpSchema(databaseUrl, stepwise), dumpSchema(databaseUrl, inOneGo)]);
    t.diagnostic(`${names.length} migrations; the schema is ${once.split(';\n\n').length} statements`);
    assert.equal(schemaDifference(steps, once, 'a migration at a time', 'in one go'), '');
    if (process.env.UPDATE_SCHEMA_SNAPSHOT) await writeFile(snapshot, once);
    // A difference here is either a migration that landed without its snapshot, or a schema the code changed behind
    // the migrations' back (which an upgraded database would not have).
    assert.equal(schemaDifference(once, await readFile(snapshot, 'utf8'), 'this database', 'the snapshot (npm run schema:snapshot when a migration lands)'), '');
  });
});
