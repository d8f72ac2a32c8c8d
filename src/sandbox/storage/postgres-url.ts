// DATABASE_URL in libpq's URI syntax, several hosts included (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`).
// pg reads one host only (pg-connection-string takes `h1:5432,h2:5432` for an invalid URL): the hosts are read here, and
// pg gets the URL with the first of them for everything else (user, password, database, the certificate files, options …);
// postgres/hosts.ts connects to the hosts in turn. sslmode is read here too and applied as libpq does
// (postgres/client.ts): pg would take prefer and require for verify-full, so the URL `pg_autoctl show uri` prints
// (`sslmode=prefer` on a node without SSL, `sslmode=require` on one with a self-signed certificate) could not connect
// (docs/operations.md, "Going live").
import type { ConnectionOptions } from 'node:tls';

export interface PostgresHost {
  host: string;
  port: number;
}

export interface PostgresTarget {
  /** In the order given; empty when the URL names none (pg's defaults, or a `host` parameter). */
  hosts: PostgresHost[];
  /** `target_session_attrs=read-write`: only a server that takes writes (the primary) is kept. */
  readWrite: boolean;
  /** libpq's sslmode, when the URL gives one (absent: no SSL, as pg has it; libpq's default would be prefer). */
  sslmode?: SslMode;
  /** The URL with its first host only and without target_session_attrs or sslmode, for pg. */
  url: string;
  /** Hosts and database, without credentials: what logs and errors may print. */
  display: string;
}

const URI = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;
const SESSION_ATTRS = ['any', 'read-write'];
/** libpq's modes, and pg's no-verify (encrypted, the certificate unchecked: libpq's require). */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** Parses a libpq URI; throws an Error saying what is wrong (never quoting the password). */
export function parsePostgresUrl(raw: string): PostgresTarget {
  const match = URI.exec(raw);
  if (!match) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1];
    throw new Error(scheme ? `is a ${scheme}: URL; it must be postgres:// or postgresql://` : 'is not a URL; it must be postgres://user@host:5432/database');
  }
  const [, scheme, userinfo, hostspec = '', path = '', query = ''] = match;
  const hosts = hostspec ? hostspec.split(',').map(hostOf) : [];
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!SESSION_ATTRS.includes(attrs)) throw new Error(`has target_session_attrs=${attrs}; it may be ${SESSION_ATTRS.join(' or ')}`);
  params.delete('target_session_attrs');
  const sslmode = params.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !(SSL_MODES as readonly string[]).includes(sslmode)) throw new Error(`has sslmode=${sslmode}; it may be ${SSL_MODES.join(', ')}`);
  params.delete('sslmode');
  const first = hosts[0] ? `${hosts[0].host.includes(':') ? `[${hosts[0].host}]` : hosts[0].host}:${hosts[0].port}` : '';
  const rest = params.toString();
  const url = `${scheme}://${userinfo !== undefined ? `${userinfo}@` : ''}${first}${path}${rest ? `?${rest}` : ''}`;
  let database: string;
  try {
    database = decodeURIComponent(path.slice(1));
    if (userinfo) decodeURIComponent(userinfo);
  } catch {
    throw new Error('has a user, password or database with a malformed %-escape');
  }
  return { hosts, readWrite: attrs === 'read-write', sslmode: sslmode as SslMode | undefined, url, display: `${hostspec || 'localhost'}/${database}` };
}

/**
 * pg's `ssl` for a libpq sslmode, on top of the files pg read from the URL (sslrootcert, sslcert, sslkey). As libpq:
 * prefer and require encrypt without checking the certificate unless a root certificate is given (then as verify-ca),
 * verify-ca checks the chain but not the name, verify-full both; disable and allow stay unencrypted (allow would try
 * SSL only after a refusal, which no server here gives). prefer falls back to no SSL when the server has none
 * (postgres/client.ts asks it first).
 */
export function tlsFor(mode: SslMode, files: ConnectionOptions = {}): ConnectionOptions | false {
  const chainOnly = { ...files, checkServerIdentity: () => undefined };
  switch (mode) {
    case 'disable':
    case 'allow':
      return false;
    case 'prefer':
    case 'require':
    case 'no-verify':
      return files.ca ? chainOnly : { ...files, rejectUnauthorized: false };
    case 'verify-ca':
      return chainOnly;
    case 'verify-full':
      return { ...files };
  }
}

function hostOf(spec: string): PostgresHost {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d*))?$/.exec(spec);
  if (!match) throw new Error(`has a host "${spec}" that is not host or host:port`);
  const port = match[3] ? Number(match[3]) : 5432;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`has a port ${match[3]} that is not between 1 and 65535`);
  return { host: decodeURIComponent(match[1] ?? match[2]!), port };
}
