// The storage interface: PostgreSQL SQL, run by PGlite in process or by a PostgreSQL server.
// Services see only this; which engine sits behind it is decided once, in openDatabase().

export type Row = object;

/** Something that runs SQL: the database itself or an open transaction. */
export interface Sql {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Sql {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on `channel` (from this process or any other on the same database). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly engine: 'pglite' | 'postgres';
}

export interface DatabaseOptions {
  /** `postgres://...`: a PostgreSQL server. Otherwise PGlite. */
  url?: string;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { migrate } = await import('./migrate.js');
  const db = options.url
    ? await (await import('./postgres.js')).openPostgres(options.url, options.schema)
    : await (await import('./pglite.js')).openPglite(options.dataDir);
  await migrate(db);
  return db;
}

/** The first row, or undefined. */
export async function one<T extends Row>(sql: Sql, text: string, params?: readonly unknown[]): Promise<T | undefined> {
  return (await sql.query<T>(text, params))[0];
}

/** SQLSTATE of a unique violation, as both engines report it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
