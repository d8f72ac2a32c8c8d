// The pg.Client of the PostgreSQL store (../postgres.ts), with what libpq does and pg does not: the operating system's
// user by default, sslmode as libpq reads it (prefer falls back to no SSL), and every connection's server checked
// (hosts.ts) before the connection is used.
import { connect as connectSocket } from 'node:net';
import { userInfo } from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { log } from '../../logging.js';
import type { DatabaseLimits } from '../database.js';
import { tlsFor, type PostgresTarget } from '../postgres-url.js';
import type { Hosts } from './hosts.js';

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
  connectionParameters: { ssl?: ConnectionOptions | boolean; user?: string };
  connection: { ssl: ConnectionOptions | boolean };
}
const setTls = (client: ClientInternals, tls: ConnectionOptions | false) => {
  client.ssl = tls;
  client.connection.ssl = tls;
};

/** SQLSTATE sqlclient_unable_to_establish_sqlconnection: a server that did not answer (transient, as every 08). */
const UNABLE_TO_CONNECT = '08001';

export function clientClass(target: PostgresTarget, hosts: Hosts, limits: DatabaseLimits): typeof pg.Client {
  /** For sslmode=prefer: each server's last answer to SSLRequest, by host:port, forgotten when a connection to it fails. */
  const sslAnswers = new Map<string, boolean>();
  /** prefer: SSL where the server takes it, else none, as libpq falls back (pg would fail on a server without SSL). */
  async function preferTls(client: pg.Client, tls: ConnectionOptions | false): Promise<string | undefined> {
    const { host, port } = hosts.addressOf(client);
    if (!tls || host.startsWith('/')) return undefined; // a Unix socket: libpq uses no SSL there either
    const key = `${host}:${port}`;
    let answer = sslAnswers.get(key);
    if (answer === undefined) {
      const asked = await takesSsl(host, port, limits.connectTimeoutMs);
      if (typeof asked === 'string') {
        // Down or silent: the connection would wait out the same timeout again. The next host is tried instead.
        hosts.passOver(client);
        throw Object.assign(new Error(`${key}: ${asked}`), { code: UNABLE_TO_CONNECT });
      }
      sslAnswers.set(key, (answer = asked));
    }
    if (answer === false) setTls(client as unknown as ClientInternals, false);
    return key;
  }
  return class Client extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      super(options);
      const internals = this as unknown as ClientInternals;
      internals.connectionParameters.user ||= internals.user ||= osUser();
      const files = internals.connectionParameters.ssl;
      const tls = target.sslmode ? tlsFor(target.sslmode, typeof files === 'object' ? files : {}) : undefined;
      if (tls !== undefined) setTls(internals, tls);
      const connect = pg.Client.prototype.connect.bind(this) as () => Promise<unknown>;
      const connectTls = async () => {
        const key = target.sslmode === 'prefer' && tls !== undefined ? await preferTls(this, tls) : undefined;
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
          .then(() => hosts.checkServer(this))
          .finally(() => this.off('error', meanwhile));
        if (!callback) return connected;
        connected.then(() => callback(), callback);
      }) as pg.Client['connect'];
    }
  };
}
