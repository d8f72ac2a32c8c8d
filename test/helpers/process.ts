// A gateway in a process of its own (`src/sandbox/main.ts`, timers on), for what one process cannot show:
// two gateways on one database, a gateway killed mid-flight, stopped by a signal, or started as the image starts it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { seedPgliteFolder } from './pglite-image.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface GatewayProcess {
  url: string;
  pid: number;
  /** Resolves when the process has exited, by itself or stopped. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote to stderr so far (its logs), when started with `captureLogs`. */
  logs(): string;
  /** The JSON log lines written whole so far (a line still being written, and text that is not JSON, left out). */
  logEntries(): LogEntry[];
  /** Resident set size now, in KiB. */
  rssKb(): number;
  /** Sends a signal; resolves with the exit code and how long the process took to exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  kill(): Promise<void>;
}

export interface LogEntry {
  level: number | string;
  msg: string;
  time: string;
  err?: unknown;
}

export interface GatewayProcessOptions {
  /** The command after `node`: the source through tsx by default; the compiled start is `['dist/gateway/main.js']`. */
  command?: string[];
  cwd?: string;
  /** Keep stderr (the JSON logs) for the test to read instead of passing it through. */
  captureLogs?: boolean;
  /**
   * A PGLITE_DIR that does not exist yet is made by the process itself (initdb and the migrations it ships), as on a
   * first start, instead of copied from the run's migrated folder (test/helpers/pglite-image.ts).
   */
  freshPglite?: boolean;
}

/** The PostgreSQL URL that makes a process work in `schema` (main.ts has no schema setting of its own). */
export function urlInSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export interface ProxiedSchema {
  /** DATABASE_URL for a gateway process: the schema, through the proxy. */
  url: string;
  /** A connection of the test's own, straight to the server. */
  admin: pg.Client;
  /** Between the processes and the server, for a test to take the database away. */
  proxy: TcpProxy;
  /** Closes the proxy and drops the schema. */
  drop(): Promise<void>;
}

/** A schema of its own on the server of `databaseUrl`, which gateway processes reach through a TCP proxy. */
export async function proxiedSchema(databaseUrl: string, schema: string): Promise<ProxiedSchema> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const proxy = await startTcpProxy(databaseUrl.replace(/^postgres:/, 'http:'));
  const url = new URL(urlInSchema(databaseUrl, schema));
  url.host = new URL(proxy.url).host;
  return {
    url: url.toString(),
    admin,
    proxy,
    async drop() {
      await proxy.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export async function startGatewayProcess(env: Record<string, string>, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  if (env.PGLITE_DIR && !options.freshPglite) await seedPgliteFolder(env.PGLITE_DIR);
  const child = spawn(process.execPath, options.command ?? ['--import', 'tsx', 'src/sandbox/main.ts'], {
    cwd: options.cwd,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', options.captureLogs ? 'pipe' : 'inherit'],
  });
  const stdout = child.stdout!;
  let out = '';
  let logs = '';
  stdout.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (logs += chunk));
  const exited = once(child, 'exit');
  while (!/on (http:\/\/\S+)/.test(out)) {
    const chunk = await Promise.race([once(stdout, 'data'), exited.then(() => undefined)]);
    if (!chunk) throw new Error(`the gateway process exited (code ${child.exitCode}, signal ${child.signalCode}) before it listened:\n${out}${logs}`);
    out += chunk[0];
  }
  stdout.resume();
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url: /on (http:\/\/\S+)/.exec(out)![1]!,
    pid: child.pid!,
    exited: exited.then(() => ({ code: child.exitCode, signal: child.signalCode })),
    logs: () => logs,
    logEntries: () =>
      logs
        .slice(0, logs.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogEntry),
    rssKb: () => Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]),
    async stop(signal = 'SIGTERM') {
      const started = performance.now();
      if (!gone()) child.kill(signal);
      await exited;
      return { code: child.exitCode, ms: performance.now() - started };
    },
    async kill() {
      if (!gone()) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
