// PGlite's half of test/operations/schema.postgres.test.ts (which has pg_dump and the snapshot): a database migrated one
// migration at a time, each in its own transaction, has the schema of one migrated in one go (the tests' image), read
// from the catalogue as PostgreSQL writes each definition back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from '../../src/sandbox/storage/database.js';
import { migrate, migrationNames } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';
import { migratedPgliteImage } from '../helpers/pglite-image.js';

const CATALOGUE = `
  SELECT 'column ' || c.relname || '.' || a.attname || ' #' || a.attnum || ' ' || format_type(a.atttypid, a.atttypmod)
      || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
      || CASE WHEN a.attidentity <> '' THEN ' identity ' || a.attidentity::text ELSE '' END AS line
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
  UNION ALL SELECT 'function ' || pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND prokind IN ('f', 'p')
  UNION ALL SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
  ORDER BY 1`;

const describeSchema = async (db: Database) => (await db.query<{ line: string }>(CATALOGUE)).map((row) => row.line);

describe('schema (PGlite)', () => {
  it('is the same made a migration at a time and in one go', async () => {
    const names = await migrationNames();
    const stepwise = await openPglite();
    const inOneGo = await openPglite(undefined, { image: await migratedPgliteImage() });
    try {
      for (let i = 1; i <= names.length; i++) await migrate(stepwise, names.slice(0, i));
      const [steps, once] = await Promise.all([describeSchema(stepwise), describeSchema(inOneGo)]);
      assert.ok(once.some((line) => line.startsWith('constraint payments payments_status_check')));
      assert.deepEqual(
        { onlyStepwise: steps.filter((line) => !once.includes(line)), onlyInOneGo: once.filter((line) => !steps.includes(line)) },
        { onlyStepwise: [], onlyInOneGo: [] },
      );
    } finally {
      await Promise.all([stepwise.close(), inOneGo.close()]);
    }
  });
});
