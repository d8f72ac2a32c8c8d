// The store on PostgreSQL (open.ts): one pool of pg clients, made of postgres/hosts.ts (which server each connection
// reaches; a fenced one passed over), postgres/client.ts (the client, as libpq connects), postgres/retries.ts
// (statements and transactions run again, an unanswered COMMIT resolved) and postgres/listen.ts (the LISTEN connection).
import pg from 'pg';
import { firstLine, log } from '../logging.js';
import { DEFAULT_DATABASE_LIMITS, isTransient, type Database, type DatabaseLimits, type Timed } from './database.js';
import { clientClass } from './postgres/client.js';
import { hostsOf, isFenced } from './postgres/hosts.js';
import { listenerOf } from './postgres/listen.js';
import { retrying } from './postgres/retries.js';
import { parsePostgresUrl } from './postgres-url.js';

// int8 holds VND amounts and counts, all below 2^53: read them as numbers, as PGlite does.
// Crypto amounts live in numeric columns and stay strings.
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is beyond 2^53`);
  return n;
}
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  limits?: DatabaseLimits;
  /** Told how long each statement and transaction took, in seconds. */
  timed?: Timed;
}

export async function openPostgres(url: string, { schema, limits = DEFAULT_DATABASE_LIMITS, timed }: PostgresOptions = {}): Promise<Database> {
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const target = parsePostgresUrl(url);
  const hosts = hostsOf(target);
  const Client = clientClass(target, hosts, limits);
  const config: pg.ClientConfig = {
    connectionString: target.url,
    types,
    options: schema ? `-c search_path=${schema}` : undefined,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    statement_timeout: limits.statementTimeoutMs || undefined,
    // A server gone silent (a host lost, not restarted) is noticed by TCP keepalive, not in hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    stream: hosts.stream,
  };
  const pool = new pg.Pool({ ...config, Client, max: limits.poolMax });
  // An idle connection that the server drops (a restart, a failover, pg_terminate_backend) is an error event on the
  // pool: without a listener it would end the process. The pool replaces the connection on the next query; the
  // outage itself is logged once, by the LISTEN connection (postgres/listen.ts).
  pool.on('error', (error) => log.debug({ err: error }, 'PostgreSQL dropped an idle connection'));
  // The start fails here, within the connect timeout per host, when the database cannot be reached. Each host is tried
  // once, as libpq does: after a failover the URL's first host may be the old primary, down or a standby now.
  for (let tried = 1; ; tried++) {
    try {
      const first = await pool.connect();
      first.release();
      break;
    } catch (error) {
      if (hosts.rotates && tried < target.hosts.length && isTransient(error)) continue;
      await pool.end().catch(() => undefined);
      throw new Error(`the database at ${target.display} cannot be reached: ${firstLine(error)}`, { cause: error });
    }
  }
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

  const listener = listenerOf(() => new Client(config), target.display);
  const { query, transaction } = retrying(pool, {
    timed,
    serverOf: hosts.serverOf,
    failed(client, error) {
      // A server that refuses writes is no longer the primary: its connections go, and the next host is tried first.
      // The LISTEN connection is likely on that server too (fenced read-only, it still takes LISTEN): it goes as well.
      if (isFenced(error)) {
        hosts.passOver(client);
        listener.drop();
      }
    },
  });

  return {
    engine: 'postgres',
    query,
    transaction,
    listen: listener.listen,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: limits.poolMax }),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
