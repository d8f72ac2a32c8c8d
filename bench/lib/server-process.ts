// A server under test in its own process (bench/servers/*.ts), so the load the bench makes never shares its
// event loop. The child runs `node` directly (one process: its pid is the one whose RSS we read), with the
// file-descriptor limit raised for thousands of streams. Every server runs compiled, as operators run the gateway
// (scripts/gateway-bundle.mjs, built once per bench process), not through tsx, whose esbuild names each closure as it
// is made (keepNames): a cost per request that production does not pay. Its logs (stderr) go straight to a file, as an
// operator's would: passed through the bench, every line cost the load side's CPU on the same cores (a gateway's line
// per request; a floor logs nothing). The file's last lines are shown when the child fails.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Announced } from '../servers/announce.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
/** A gateway busy with thousands of streams can take a while to get to stdin. */
const MEMORY_TIMEOUT_MS = 60_000;
export const FD_LIMIT = 20_000;
/** Lines of a failed child's log shown with its error. */
const LOG_TAIL_LINES = 20;

const logFolder = mkdtempSync(join(tmpdir(), 'pay-checkout-bench-logs-'));
let logs = 0;
/** The logs stay for reading only when a server failed; a gateway's log of a run is tens of megabytes. */
let failed = false;
process.once('exit', () => {
  if (!failed) rmSync(logFolder, { recursive: true, force: true });
});
/** scripts/gateway-bundle.mjs is plain JavaScript without declarations: this is its shape. */
interface GatewayBundleScript {
  bundleGateway(entryPoints: Record<string, string>, outdir: string): Promise<void>;
}
const SERVERS = ['gateway', 'floor', 'hello'] as const;
/** The bench's servers compiled, two folders below the root as the gateway's own build (src/sandbox/paths.ts). */
const BUILT = join(ROOT, 'dist', 'bench');
let built: Promise<void> | undefined;
function buildServers(): Promise<void> {
  built ??= (async () => {
    const script = new URL('../../scripts/gateway-bundle.mjs', import.meta.url).href;
    const { bundleGateway } = (await import(script)) as GatewayBundleScript;
    await bundleGateway(Object.fromEntries(SERVERS.map((name) => [name, join(ROOT, 'bench', 'servers', `${name}.ts`)])), BUILT);
  })();
  return built;
}

/** The end of a failed server's log, for its error; the log folder is then kept (above). */
const failedLog = (file: string) => {
  failed = true;
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-LOG_TAIL_LINES).map((line) => `  ${line}`).join('\n');
};

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident set size of the child now, from /proc (KiB). */
  rssKb(): number;
  /** The child's soft limit of open files. */
  fdLimit(): number;
  /** The child's process.memoryUsage() after a full GC. */
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export async function startServer(name: (typeof SERVERS)[number], env: Record<string, string> = {}): Promise<ServerProcess> {
  await buildServers();
  const logFile = join(logFolder, `${++logs}-${name}.log`);
  const logFd = openSync(logFile, 'a');
  // `exec` keeps one process, so the pid stays node's; fdLimit() tells whether the raise took.
  const child = spawn('sh', ['-c', `ulimit -n ${FD_LIMIT} 2>/dev/null; exec "$0" "$@"`, process.execPath, '--expose-gc', join(BUILT, `${name}.js`)], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', NODE_ENV: 'production', ...env },
    stdio: ['pipe', 'pipe', logFd],
  });
  closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let listening = false;
  // Once it listened: a failure before is the start's error below, with the same lines.
  void exited.then((code) => {
    if (listening && code !== 0 && code !== null) process.stderr.write(`${name} server exited with ${code}; the end of ${logFile}:\n${failedLog(logFile)}\n`);
  });
  const lines = createInterface({ input: child.stdout! });
  const memoryWaiters: ((mem: NodeJS.MemoryUsage) => void)[] = [];

  const announced = await new Promise<Announced>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} server did not start within ${START_TIMEOUT_MS} ms; the end of ${logFile}:\n${failedLog(logFile)}`)), START_TIMEOUT_MS);
    void exited.then((code) => {
      if (!listening) reject(new Error(`${name} server exited with ${code} before it listened; the end of ${logFile}:\n${failedLog(logFile)}`));
    });
    lines.on('line', (line) => {
      let message: Partial<Announced> & { mem?: NodeJS.MemoryUsage };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return; // anything else the child prints is not for us
      }
      if (message.mem) memoryWaiters.shift()?.(message.mem);
      else if (message.url && message.pid) {
        clearTimeout(timer);
        listening = true;
        resolve({ url: message.url, pid: message.pid });
      }
    });
  });

  return {
    ...announced,
    rssKb() {
      const status = readFileSync(`/proc/${announced.pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      if (!match) throw new Error(`no VmRSS for pid ${announced.pid}`);
      return Number(match[1]);
    },
    fdLimit() {
      const limits = readFileSync(`/proc/${announced.pid}/limits`, 'utf8');
      return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? NaN);
    },
    memory() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the server did not report its memory within ${MEMORY_TIMEOUT_MS} ms`)), MEMORY_TIMEOUT_MS);
        memoryWaiters.push((mem) => {
          clearTimeout(timer);
          resolve(mem);
        });
        child.stdin!.write('mem\n');
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
