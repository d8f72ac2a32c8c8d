// Migrations are frozen text: each file says what it ran as on the day it was released, and nothing in the code
// (no contract list, no template) changes it afterwards, so a database upgraded through a file and one made after it
// are the same. A list that changes is a new migration (docs/operations.md, "Upgrade").
import { readdir, readFile } from 'node:fs/promises';
import { log } from '../logging.js';
import type { Database } from './database.js';
import { LOCK_KEYS, lockExclusive } from './locks.js';

const folder = new URL('./migrations/', import.meta.url);

/** The numbered SQL files of migrations/, in order: what a database at this version has applied. */
export async function migrationNames(): Promise<string[]> {
  return (await readdir(folder)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
}

/** A migration's statements, as the file holds them. */
export function migrationText(name: string): Promise<string> {
  return readFile(new URL(name, folder), 'utf8');
}

/**
 * Applies the numbered SQL files of migrations/ that this database has not seen, in order, in one transaction.
 * `names` narrows them to a prefix of the list (a test upgrades a database one release at a time).
 */
export async function migrate(db: Database, names?: readonly string[]): Promise<void> {
  const files = names ?? (await migrationNames());
  const applied: { migration: string; ms: number }[] = [];
  await db.transaction(async (tx) => {
    applied.length = 0; // a retried transaction applies them again
    // Several gateway processes may start on one database at once: one migrates, the others wait.
    await lockExclusive(tx, LOCK_KEYS.migrations);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
    for (const name of files) {
      if (done.has(name)) continue;
      const started = performance.now();
      for (const statement of splitStatements(await migrationText(name))) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push({ migration: name, ms: Math.round(performance.now() - started) });
    }
  });
  // Said once committed: a line for a migration that was rolled back would be a lie.
  for (const entry of applied) log.info(entry, 'migrations: applied');
}

/** Migration files hold plain statements separated by semicolons at line ends (no functions with bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
