import { readdir, readFile } from 'node:fs/promises';
import type { Database } from './database.js';

const folder = new URL('./migrations/', import.meta.url);

/** Applies the numbered SQL files of migrations/ that this database has not seen, in order, each in a transaction. */
export async function migrate(db: Database): Promise<void> {
  const files = (await readdir(folder)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  await db.transaction(async (tx) => {
    // Several gateway processes may start on one database at once: one migrates, the others wait.
    await tx.query('SELECT pg_advisory_xact_lock(7310001)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
    for (const name of files) {
      if (applied.has(name)) continue;
      const statements = await readFile(new URL(name, folder), 'utf8');
      for (const statement of splitStatements(statements)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
  });
}

/** Migration files hold plain statements separated by semicolons at line ends (no functions with bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
