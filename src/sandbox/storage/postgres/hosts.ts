// Which server each connection of the PostgreSQL store reaches (../postgres.ts): the hosts of DATABASE_URL in turn (pg
// itself would connect to the URL's first), every new connection asked whether its server takes writes and on which
// timeline, and a host passed over when it refuses, times out, is a standby or is fenced (made read-only).
import { Socket } from 'node:net';
import type pg from 'pg';
import type { PostgresHost, PostgresTarget } from '../postgres-url.js';

/** A connection to a standby when the URL asked for read-write: refused like a host that is down, and the next tried. */
const READ_ONLY = '08006';
/** A write refused by a server that is (now) read-only: a standby, or a primary fenced by making it read-only. */
const READ_ONLY_TRANSACTION = '25006';
/** Whether the server takes writes, and its timeline (on a primary; empty on a standby, where it cannot be asked). */
const SERVER_QUERY = `SELECT current_setting('transaction_read_only') AS read_only,
  CASE WHEN pg_is_in_recovery() THEN '' ELSE substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) END AS timeline`;

/** Whether a statement failed because its server no longer takes writes: it is no longer the primary. */
export const isFenced = (error: unknown) => (error as { code?: unknown } | undefined)?.code === READ_ONLY_TRANSACTION;

/**
 * What pg needs to reach one of several hosts: a socket that connects to the host in turn, moving on when one refuses,
 * times out or is read-only where a primary is wanted.
 */
function rotation(target: PostgresTarget) {
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

const hostIndexOf = (client: pg.Client) => (client as unknown as { connection: { stream: { hostIndex?: number } } }).connection.stream.hostIndex ?? 0;

export type Hosts = ReturnType<typeof hostsOf>;

export function hostsOf(target: PostgresTarget) {
  // One host that any server will do for is left to pg.
  const turn = target.hosts.length > 1 || target.readWrite ? rotation(target) : undefined;
  /** The timeline of the server each connection reached. */
  const timelines = new WeakMap<pg.Client, string>();
  /** The next connection tries the host after this client's. */
  const passOver = (client: pg.Client) => turn?.skip(hostIndexOf(client));
  return {
    /** pg's `stream` option, undefined when pg connects on its own. */
    stream: turn?.stream,
    /** Whether a connection that fails may find another host. */
    rotates: turn !== undefined,
    passOver,
    /** Where a client connects: its host of the URL's list, or pg's own host and port. */
    addressOf: (client: pg.Client): PostgresHost => (turn ? target.hosts[hostIndexOf(client)]! : client),
    /** The timeline of the server the client reached (checkServer). */
    serverOf: (client: pg.Client) => timelines.get(client),
    /**
     * Every new connection learns which server it reached: a standby or a read-only server is refused like a host that
     * is down when the URL asks for read-write, and a primary's timeline is kept on the client. A promoted standby starts
     * a new timeline, so the timeline tells the old primary from the new one (both answer txid_status, differently).
     */
    async checkServer(client: pg.Client): Promise<void> {
      const { rows } = await client.query<{ read_only: string; timeline: string }>(SERVER_QUERY);
      const { read_only: readOnly, timeline } = rows[0]!;
      if (target.readWrite && readOnly === 'on') {
        passOver(client);
        await client.end().catch(() => undefined);
        throw Object.assign(new Error('the server is read-only (a standby) and DATABASE_URL asks for read-write'), { code: READ_ONLY });
      }
      timelines.set(client, timeline);
    },
  };
}
