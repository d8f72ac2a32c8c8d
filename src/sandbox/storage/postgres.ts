import { Socket, connect as connectSocket } from 'node:net';
import { userInfo } from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { firstLine, log } from '../logging.js';
import { DEFAULT_DATABASE_LIMITS, isTransient, type Database, type DatabaseLimits, type Row, type Sql, type Timed } from './database.js';
import { parsePostgresUrl, tlsFor, type PostgresTarget } from './postgres-url.js';

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

/** Attempts of one transaction or statement before its failure is the caller's. */
const ATTEMPTS = 5;
/** Reconnecting: first after this, doubling up to the cap, each wait jittered. */
const RECONNECT_MS = 100;
const RECONNECT_MAX_MS = 3_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Backoff with jitter, so processes that failed together do not retry together. */
const backoff = (attempt: number) => pause(Math.min(RECONNECT_MS * 2 ** attempt, RECONNECT_MAX_MS) * (0.5 + Math.random() / 2));

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `s${statementNames.size}`));
  return name;
}

/**
 * What pg needs to reach one of several hosts: a socket that connects to the host in turn (pg itself would connect to
 * the URL's first), moving on when one refuses, times out or is read-only where a primary is wanted.
 */
function hostsOf(target: PostgresTarget) {
  let next = 0;
  const skip = (index: number) => {
    if (next === index) next = (index + 1) % target.hosts.length;
  };
  const stream = () => {
    const socket = new Socket();
    const index = next;
    const { host, port } = target.hosts[index]!;
    const connect = socket.connect.bind(socket);
    socket.connect = (() => connect(port, host)) as typeof socket.connect;
    socket.once('error', () => skip(index));
    // pg gives up on a silent host by destroying the socket: the next connection tries the next host.
    socket.once('close', () => socket.connecting && skip(index));
    Object.assign(socket, { hostIndex: index });
    return socket;
  };
  return { stream, skip };
}

/** PostgreSQL's SSLRequest: the server answers one byte, S (it takes SSL) or N (it has none). */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
/** Whether the server at host:port takes SSL, or why it could not be asked (down, silent, not PostgreSQL). */
function takesSsl(host: string, port: number, timeoutMs: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = connectSocket({ host, port });
    const done = (answer: boolean | string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('error', (error) => done(error.message));
    socket.once('connect', () => socket.write(SSL_REQUEST));
    socket.once('data', (answer) => done(answer[0] === 0x53 ? true : answer[0] === 0x4e ? false : 'an answer that is not PostgreSQL\'s'));
  });
}

/** The user libpq takes when neither the URL nor PGUSER names one: the operating system's (pg would read $USER, often unset). */
function osUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined; // a uid without a name (a container's): PostgreSQL says no user was given
  }
}

/** What pg.Client keeps of its settings and its connection's, set again per connection below. */
interface ClientInternals {
  ssl: ConnectionOptions | boolean;
  user?: string;
  host: string;
  port: number;
  connectionParameters: { ssl?: ConnectionOptions | boolean; user?: string };
  connection: { ssl: ConnectionOptions | boolean };
}
const setTls = (client: ClientInternals, tls: ConnectionOptions | false) => {
  client.ssl = tls;
  client.connection.ssl = tls;
};

/** SQLSTATE sqlclient_unable_to_establish_sqlconnection: a server that did not answer (transient, as every 08). */
const UNABLE_TO_CONNECT = '08001';
/** A connection to a standby when the URL asked for read-write: refused like a host that is down, and the next tried. */
const READ_ONLY = '08006';
/** SQLSTATE transaction_resolution_unknown: a COMMIT went unanswered and the server that could tell is gone. */
const OUTCOME_UNKNOWN = '08007';
/** A write refused by a server that is (now) read-only: a standby, or a primary fenced by making it read-only. */
const READ_ONLY_TRANSACTION = '25006';
/** Whether the server takes writes, and its timeline (on a primary; empty on a standby, where it cannot be asked). */
const SERVER_QUERY = `SELECT current_setting('transaction_read_only') AS read_only,
  CASE WHEN pg_is_in_recovery() THEN '' ELSE substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) END AS timeline`;
/** A transaction's outcome, and whether other sessions see it (a commit shows only once the synchronous standby has it). */
const OUTCOME_QUERY = 'SELECT txid_status($1::bigint) AS status, txid_visible_in_snapshot($1::bigint, txid_current_snapshot()) AS visible';
/** The timeline of the server each connection reached. */
const serverOf = new WeakMap<pg.Client, string>();
const hostIndexOf = (client: pg.Client) => (client as unknown as { connection: { stream: { hostIndex?: number } } }).connection.stream.hostIndex ?? 0;
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
  const hosts = target.hosts.length > 1 || target.readWrite ? hostsOf(target) : undefined;
  const config: pg.ClientConfig = {
    connectionString: target.url,
    types,
    options: schema ? `-c search_path=${schema}` : undefined,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    statement_timeout: limits.statementTimeoutMs || undefined,
    // A server gone silent (a host lost, not restarted) is noticed by TCP keepalive, not in hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    stream: hosts?.stream,
  };
  /**
   * Every new connection learns which server it reached: a standby or a read-only server is refused like a host that is
   * down when the URL asks for read-write, and a primary's timeline is kept on the client. A promoted standby starts a
   * new timeline, so the timeline tells the old primary from the new one (both answer txid_status, differently).
   */
  async function checkServer(client: pg.Client): Promise<void> {
    const { rows } = await client.query<{ read_only: string; timeline: string }>(SERVER_QUERY);
    const { read_only: readOnly, timeline } = rows[0]!;
    if (target.readWrite && readOnly === 'on') {
      hosts?.skip(hostIndexOf(client));
      await client.end().catch(() => undefined);
      throw Object.assign(new Error('the server is read-only (a standby) and DATABASE_URL asks for read-write'), { code: READ_ONLY });
    }
    serverOf.set(client, timeline);
  }
  /** For sslmode=prefer: each server's last answer to SSLRequest, by host:port, forgotten when a connection to it fails. */
  const sslAnswers = new Map<string, boolean>();
  /** prefer: SSL where the server takes it, else none, as libpq falls back (pg would fail on a server without SSL). */
  async function preferTls(client: ClientInternals, tls: ConnectionOptions | false): Promise<string | undefined> {
    const { host, port } = hosts ? target.hosts[hostIndexOf(client as unknown as pg.Client)]! : client;
    if (!tls || host.startsWith('/')) return undefined; // a Unix socket: libpq uses no SSL there either
    const key = `${host}:${port}`;
    let answer = sslAnswers.get(key);
    if (answer === undefined) {
      const asked = await takesSsl(host, port, limits.connectTimeoutMs);
      if (typeof asked === 'string') {
        // Down or silent: the connection would wait out the same timeout again. The next host is tried instead.
        hosts?.skip(hostIndexOf(client as unknown as pg.Client));
        throw Object.assign(new Error(`${key}: ${asked}`), { code: UNABLE_TO_CONNECT });
      }
      sslAnswers.set(key, (answer = asked));
    }
    if (answer === false) setTls(client, false);
    return key;
  }
  class Client extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      super(options);
      const internals = this as unknown as ClientInternals;
      internals.connectionParameters.user ||= internals.user ||= osUser();
      const files = internals.connectionParameters.ssl;
      const tls = target.sslmode ? tlsFor(target.sslmode, typeof files === 'object' ? files : {}) : undefined;
      if (tls !== undefined) setTls(internals, tls);
      const connect = pg.Client.prototype.connect.bind(this) as () => Promise<unknown>;
      const connectTls = async () => {
        const key = target.sslmode === 'prefer' && tls !== undefined ? await preferTls(internals, tls) : undefined;
        try {
          await connect();
        } catch (error) {
          if (key) sslAnswers.delete(key);
          throw error;
        }
      };
      // pg-pool connects with a callback, the listener with a promise.
      this.connect = ((callback?: (error?: Error) => void) => {
        // pg-pool listens for a client's errors only once its connect has called back, and checkServer queries a
        // client already connected: a connection cut meanwhile is an error event that would end the process (a
        // database outage of 100 ms, listen.postgres.test.ts). The check's query fails with it too, and so the connect.
        const meanwhile = (error: Error) => log.debug({ err: error }, 'PostgreSQL connection failed while it was checked');
        this.on('error', meanwhile);
        const connected = connectTls()
          .then(() => checkServer(this))
          .finally(() => this.off('error', meanwhile));
        if (!callback) return connected;
        connected.then(() => callback(), callback);
      }) as pg.Client['connect'];
    }
  }
  const pool = new pg.Pool({ ...config, Client, max: limits.poolMax });
  // An idle connection that the server drops (a restart, a failover, pg_terminate_backend) is an error event on the
  // pool: without a listener it would end the process. The pool replaces the connection on the next query; the
  // outage itself is logged once, by the listener below.
  pool.on('error', (error) => log.debug({ err: error }, 'PostgreSQL dropped an idle connection'));
  // The start fails here, within the connect timeout per host, when the database cannot be reached. Each host is tried
  // once, as libpq does: after a failover the URL's first host may be the old primary, down or a standby now.
  for (let tried = 1; ; tried++) {
    try {
      const first = await pool.connect();
      first.release();
      break;
    } catch (error) {
      if (hosts && tried < target.hosts.length && isTransient(error)) continue;
      await pool.end().catch(() => undefined);
      throw new Error(`the database at ${target.display} cannot be reached: ${firstLine(error)}`, { cause: error });
    }
  }
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

  // A statement with parameters is prepared once per connection and then only bound: PostgreSQL skips parsing and
  // planning it again. The name is the same for the same text on every connection of the process.
  const prepared = (text: string, params?: readonly unknown[]): pg.QueryConfig => ({ name: params ? statementName(text) : undefined, text, values: params as unknown[] });
  const wrap = (client: pg.PoolClient): Sql => ({
    async query<T extends Row>(text: string, params?: readonly unknown[]) {
      return (await client.query<T>(prepared(text, params))).rows;
    },
  });

  /**
   * A client of the pool, watched while it is out: a connection cut meanwhile is an error event on the client
   * (sometimes more than one: the server's message, then the socket's end), handled for as long as the client lives,
   * or it would end the process. A client that broke is destroyed on release, not returned.
   */
  interface Held {
    client: pg.PoolClient;
    broken: boolean;
    onError(): void;
  }
  function watch(client: pg.PoolClient): Held {
    const held: Held = { client, broken: false, onError: () => (held.broken = true) };
    client.on('error', held.onError);
    return held;
  }
  function release(held: Held, error?: unknown): void {
    if (error !== undefined && isTransient(error)) held.broken = true;
    // A server that refuses writes is no longer the primary: its connections go, and the next host is tried first.
    // The LISTEN connection is likely on that server too (fenced read-only, it still takes LISTEN): it goes as well.
    if ((error as { code?: unknown } | undefined)?.code === READ_ONLY_TRANSACTION) {
      hosts?.skip(hostIndexOf(held.client));
      void listener?.end().catch(() => undefined);
    }
    if (!held.broken) held.client.off('error', held.onError);
    held.client.release(held.broken || undefined);
  }

  async function withClient<T>(work: (client: pg.PoolClient, state: { broken: boolean }) => Promise<T>): Promise<T> {
    const held = watch(await pool.connect());
    let failure: unknown;
    try {
      return await work(held.client, held);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      release(held, failure);
    }
  }

  /**
   * One statement, on a client of its own. On its own it commits or not at all, so one lost with its connection is
   * simply run again. Written out rather than as withClient inside a retry helper: this is every read's path, and each
   * async layer costs a promise per request.
   */
  async function statement<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    const started = timed && performance.now();
    for (let attempt = 1; ; attempt++) {
      const held = watch(await pool.connect());
      let failure: unknown;
      try {
        const rows = (await held.client.query<T>(prepared(text, params))).rows;
        if (started) timed!('statement', (performance.now() - started) / 1000);
        return rows;
      } catch (error) {
        failure = error;
        if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
      } finally {
        release(held, failure);
      }
      await backoff(attempt);
    }
  }

  async function transactionOnce<T>(fn: (tx: Sql) => Promise<T>): Promise<{ result: T } | { retry: unknown }> {
    return withClient(async (client, state) => {
      let xid: string;
      let result: T;
      try {
        // The transaction's id, in the same round trip: if the connection is lost during COMMIT, it tells the outcome.
        const begun = (await client.query('BEGIN; SELECT txid_current()::text AS xid')) as unknown as pg.QueryResult<{ xid: string }>[];
        xid = begun[1]!.rows[0]!.xid;
        result = await fn(wrap(client));
      } catch (error) {
        if (!state.broken) await client.query('ROLLBACK').catch(() => (state.broken = true));
        if (isTransient(error)) return { retry: error };
        throw error;
      }
      try {
        await client.query('COMMIT');
        return { result };
      } catch (error) {
        // A constraint checked at commit refuses it: the transaction is over, the error is the caller's.
        if (!isTransient(error)) throw error;
        state.broken = true;
        return (await committed(xid, serverOf.get(client))) ? { result } : { retry: error };
      }
    });
  }

  /**
   * Whether a transaction whose COMMIT got no answer did commit, asked on another connection once one is up. Only the
   * server it ran on (its timeline) can tell: after a failover the new primary reuses transaction ids, so there the
   * outcome is unknown (08007) and the caller answers that, never runs the work again.
   */
  async function committed(xid: string, server: string | undefined): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      let status: string | null | undefined;
      try {
        status = await withClient(async (client) => {
          if (serverOf.get(client) !== server) {
            throw Object.assign(new Error(`transaction ${xid} may or may not have committed: the server it ran on is no longer the primary`), { code: OUTCOME_UNKNOWN });
          }
          const { rows } = await client.query<{ status: string | null; visible: boolean }>(prepared(OUTCOME_QUERY, [xid]));
          // Committed, but not yet visible: still waiting for the synchronous standby, so not yet durable.
          return rows[0]?.status === 'committed' && !rows[0].visible ? 'in progress' : rows[0]?.status;
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === OUTCOME_UNKNOWN) throw error;
      }
      if (status === 'committed') return true;
      if (status === 'aborted') return false;
      if (attempt >= ATTEMPTS * 4) {
        throw Object.assign(new Error(`transaction ${xid} is still ${status ?? 'unknown'}: its outcome could not be learnt`), { code: OUTCOME_UNKNOWN });
      }
      await backoff(attempt);
    }
  }

  /**
   * One dedicated connection carries every LISTEN of this process and runs nothing else. Lost, it is replaced by one
   * new client at a time, after a backoff with jitter; a client that failed to connect or to listen is closed before
   * the next is made. An outage is logged when it starts and when it ends.
   */
  const handlers = new Map<string, Set<(payload: string | undefined) => void>>();
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let lostAt: number | undefined;
  let closing = false;
  const listenTo = (client: pg.Client, channel: string) => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);

  function connectListener(): Promise<pg.Client> {
    if (listener) return Promise.resolve(listener);
    connecting ??= (async () => {
      for (let attempt = 0; ; attempt++) {
        if (closing) throw new Error('the database is closed');
        const client = new Client(config);
        // Failures show as a rejected connect or query, or as `end` once connected; this keeps them from ending the process.
        client.on('error', (error) => log.debug({ err: error }, 'PostgreSQL LISTEN connection failed'));
        try {
          await client.connect();
          for (const channel of handlers.keys()) await listenTo(client, channel);
        } catch (error) {
          void client.end().catch(() => undefined);
          if (lostAt === undefined) throw error;
          await backoff(attempt);
          continue;
        }
        client.on('notification', (message) => {
          for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        client.once('end', () => lost(client));
        return (listener = client);
      }
    })().finally(() => (connecting = undefined));
    return connecting;
  }

  /** The listener is gone: one client is made again, until one is up; every handler then hears it may have missed some. */
  function lost(client: pg.Client): void {
    if (listener !== client) return;
    listener = undefined;
    if (closing) return;
    lostAt = Date.now();
    log.warn({ database: target.display }, 'PostgreSQL connection lost; reconnecting');
    void connectListener().then(
      () => {
        log.info({ database: target.display, outage_ms: Date.now() - lostAt! }, 'PostgreSQL connection back');
        lostAt = undefined;
        for (const set of handlers.values()) for (const handler of set) handler(undefined);
      },
      () => undefined, // closed meanwhile
    );
  }

  return {
    engine: 'postgres',
    query: statement,
    async transaction(fn) {
      const started = timed && performance.now();
      for (let attempt = 1; ; attempt++) {
        const outcome = await transactionOnce(fn);
        if ('result' in outcome) {
          if (started) timed!('transaction', (performance.now() - started) / 1000);
          return outcome.result;
        }
        if (attempt >= ATTEMPTS) throw outcome.retry;
        await backoff(attempt);
      }
    },
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      // During an outage the channel is listened to when the connection is back (and the handler hears of the gap).
      if (lostAt === undefined) {
        const client = await connectListener();
        if (isNew) await listenTo(client, channel);
      }
      return async () => {
        set.delete(onPayload);
      };
    },
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: limits.poolMax }),
    async close() {
      closing = true;
      await connecting?.catch(() => undefined);
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
