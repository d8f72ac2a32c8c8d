// The storage interface: PostgreSQL SQL, run by PGlite in process or by a PostgreSQL server.
// Services see only this; which engine sits behind it is decided once, in openDatabase() (./open.ts).

export type Row = object;

/** Something that runs SQL: the database itself or an open transaction. */
export interface Sql {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Sql {
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. A deadlock, a
   * serialization failure or a connection lost before COMMIT rolls back and runs `fn` again, so `fn` must keep
   * its effects in the database.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Subscribes to NOTIFY on `channel` (from this process or any other on the same database). `onPayload` gets
   * undefined when the connection that listens was lost and is back: notifications may have been missed meanwhile.
   */
  listen(channel: string, onPayload: (payload: string | undefined) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly engine: 'pglite' | 'postgres';
  /** The connection pool now (PostgreSQL only). */
  pool?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

/** Bounds on what the gateway asks of a PostgreSQL server. */
export interface DatabaseLimits {
  /** A server that has not accepted a connection by then is down (the start fails, a request is retried). */
  connectTimeoutMs: number;
  /** A statement running longer is cancelled by the server (0: no limit). */
  statementTimeoutMs: number;
  /** Connections one process holds at most (the LISTEN connection is one more). */
  poolMax: number;
}

/** The defaults of DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_POOL_MAX (config.ts). */
export const DEFAULT_DATABASE_LIMITS: DatabaseLimits = { connectTimeoutMs: 5_000, statementTimeoutMs: 30_000, poolMax: 10 };

/** Told how long each statement on its own and each transaction took, in seconds (the metrics). */
export type Timed = (kind: 'statement' | 'transaction', seconds: number) => void;

export interface DatabaseOptions {
  /** `postgres://...`: a PostgreSQL server. Otherwise PGlite. */
  url?: string;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  /** PGlite: the image of a data folder to start from (storage/pglite.ts). */
  pgliteImage?: Blob;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  limits?: DatabaseLimits;
  timed?: Timed;
}

/** `('a', 'b')`: a list of the contract's constants (never input) as SQL. */
export const sqlList = (values: readonly string[]): string => `(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;

/** The first row, or undefined. */
export async function one<T extends Row>(sql: Sql, text: string, params?: readonly unknown[]): Promise<T | undefined> {
  return (await sql.query<T>(text, params))[0];
}

/**
 * A failure that running the same transaction again can get past: deadlock, serialization failure, lost connection, a
 * write refused by a server that is no longer the primary (25006: the next connection seeks the primary), no connection
 * of the pool free within the connect timeout (pg-pool's message: every connection waits on a server that is switching,
 * as during `pg_autoctl perform failover`, where it was a 500).
 */
export function isTransient(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code === '40P01' || code === '40001' || code === '25006' || /^(08|57P0)/.test(code))) return true;
  if (typeof code === 'string' && ['ECONNRESET', 'ECONNREFUSED', 'EPIPE'].includes(code)) return true;
  return typeof message === 'string' && /Connection terminated|connection.*(closed|ended)|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message);
}

/** SQLSTATE of a unique violation, as both engines report it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
