import { readdir, readFile } from 'node:fs/promises';
import { WEBHOOK_ATTEMPT_ERRORS, WEBHOOK_DELIVERY_STATUSES } from '../../contract/merchant-read.js';
import { REFUND_STATUSES, REFUND_TYPES } from '../../contract/refund.js';
import { LINK_STATUSES, LIVE_LINK_STATUSES, OPEN_PAYMENT_STATUSES, PAYMENT_STATUSES, QUOTE_OPEN_STATUSES } from '../../contract/rules.js';
import { type Database, sqlList } from './database.js';

/** The contract's lists a migration names as `{{NAME}}`: the SQL says what the contract says, from one place. */
const LISTS: Record<string, readonly string[]> = {
  PAYMENT_STATUSES,
  LINK_STATUSES,
  QUOTE_OPEN_STATUSES,
  OPEN_PAYMENT_STATUSES,
  LIVE_LINK_STATUSES,
  REFUND_STATUSES,
  REFUND_TYPES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ATTEMPT_ERRORS,
};

const folder = new URL('./migrations/', import.meta.url);

/** The numbered SQL files of migrations/, in order: what a database at this version has applied. */
export async function migrationNames(): Promise<string[]> {
  return (await readdir(folder)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
}

/** A migration's statements as they run: its file with the contract's lists written out. */
export async function migrationText(name: string): Promise<string> {
  return withLists(await readFile(new URL(name, folder), 'utf8'));
}

/** Applies the numbered SQL files of migrations/ that this database has not seen, in order, in one transaction. */
export async function migrate(db: Database): Promise<void> {
  const files = await migrationNames();
  await db.transaction(async (tx) => {
    // Several gateway processes may start on one database at once: one migrates, the others wait.
    await tx.query('SELECT pg_advisory_xact_lock(7310001)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
    for (const name of files) {
      if (applied.has(name)) continue;
      for (const statement of splitStatements(await migrationText(name))) await tx.query(statement);
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

/** A migration with each `{{NAME}}` written out as the SQL list of the contract's LISTS[NAME]. */
export function withLists(sql: string): string {
  return sql.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const list = LISTS[name];
    if (!list) throw new Error(`a migration names {{${name}}}, which is not one of the contract's lists`);
    return sqlList(list);
  });
}
