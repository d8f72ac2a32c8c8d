// A schema as `pg_dump --schema-only` writes it, normalised so that two databases with the same tables, indexes,
// constraints and functions give the same text however they were made: comments, SET lines and psql's \restrict
// lines (a random key) dropped, the schema's name taken out, and the statements sorted (pg_dump breaks ties by OID).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** pg_dump of the newest PostgreSQL installed (it must be at least the server's), as scripts/postgres.mjs finds initdb. */
function pgDump(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'pg_dump'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0]!, 'bin', 'pg_dump') : 'pg_dump';
}

export async function dumpSchema(databaseUrl: string, schema: string): Promise<string> {
  const { stdout } = await promisify(execFile)(pgDump(), ['--schema-only', '--no-owner', '--no-privileges', `--schema=${schema}`, `--dbname=${databaseUrl}`], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return normaliseDump(stdout, schema);
}

export function normaliseDump(dump: string, schema: string): string {
  const lines = dump.split('\n').filter((line) => !line.startsWith('--') && !line.startsWith('SET ') && !line.startsWith('\\') && !line.startsWith('SELECT pg_catalog.set_config('));
  const statements = lines
    .join('\n')
    .replaceAll(`${schema}.`, '')
    .split(/;\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement && statement !== `CREATE SCHEMA ${schema}`);
  return `${statements.sort().join(';\n\n')};\n`;
}

/** The statements one normalised dump has and the other lacks, as a readable message (empty when they agree). */
export function schemaDifference(actual: string, expected: string, actualName: string, expectedName: string): string {
  const of = (dump: string) => dump.split(';\n\n').map((s) => s.replace(/;\n$/, ''));
  const [a, e] = [of(actual), of(expected)];
  const only = (xs: string[], ys: string[]) => xs.filter((x) => !ys.includes(x));
  const lines = [...only(a, e).map((s) => `only in ${actualName}:\n${s}`), ...only(e, a).map((s) => `only in ${expectedName}:\n${s}`)];
  return lines.join('\n\n');
}
