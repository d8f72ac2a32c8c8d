// A private anvil node for the sandbox and the tests: the binary from @foundry-rs/anvil's platform package, spawned
// directly, stopped with its owner.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface AnvilOptions {
  /** Default 11155111 (Sepolia's), so addresses and URIs look like a testnet's. */
  chainId?: number;
  /** Default 0: any free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 'auto' (a block per transaction); 'manual': blocks only on `anvil_mine`. */
  mining?: 'auto' | 'manual' | { intervalSeconds: number };
  /** Loaded at start and written on exit, and every second while running: a restarted node keeps its chain. */
  statePath?: string;
  /** How many unlocked dev accounts (anvil's default: 10). */
  accounts?: number;
}

export interface AnvilNode {
  readonly rpcUrl: string;
  readonly port: number;
  readonly chainId: number;
  readonly pid: number;
  /** SIGTERM (anvil writes its state), SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

// The wrapper's optionalDependencies, by Node's platform and arch. Its postinstall, which would link the binary, does
// not run where npm runs no install scripts, so the binary is taken from the platform package itself.
const PLATFORM_PACKAGES: Record<string, string> = {
  'darwin-arm64': 'darwin-arm64',
  'darwin-x64': 'darwin-amd64',
  'linux-arm64': 'linux-arm64',
  'linux-x64': 'linux-amd64',
  'win32-x64': 'win32-amd64',
};

export function anvilBinary(): string {
  const target = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!target) throw new Error(`anvil has no binary for ${process.platform}-${process.arch}`);
  const manifest = createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${target}/package.json`);
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL = 4_000;

// Nodes still running: killed when their owner exits. On Linux the kernel also kills them when the owner dies of a
// signal (a SIGKILLed gateway, a test runner's SIGTERM), which no exit handler sees: setpriv sets the parent-death
// signal and execs anvil, so the pid stays anvil's.
const SETPRIV = '/usr/bin/setpriv';
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killLiveOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

function anvilArgs(host: string, port: number, chainId: number, options: AnvilOptions): string[] {
  const args = ['--host', host, '--port', String(port), '--chain-id', String(chainId)];
  const mining = options.mining ?? 'auto';
  if (mining === 'manual') args.push('--no-mining');
  else if (mining !== 'auto') args.push('--block-time', String(mining.intervalSeconds));
  // --state-interval: a node that is SIGKILLed loses at most the last second.
  if (options.statePath) args.push('--state', options.statePath, '--state-interval', '1');
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  return args;
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const host = options.host ?? '127.0.0.1';
  const chainId = options.chainId ?? 11155111;
  const argv = [anvilBinary(), ...anvilArgs(host, options.port ?? 0, chainId, options)];
  if (process.platform === 'linux' && existsSync(SETPRIV)) argv.unshift(SETPRIV, '--pdeathsig', 'SIGKILL', '--');
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  killLiveOnExit();
  live.add(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
  });

  // anvil logs every request on stdout: it is always read (a full pipe would block the node), and only a tail kept.
  let tail = '';
  let onListening: ((port: number) => void) | undefined;
  const listening = /Listening on [^\s]*:(\d+)/;
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
    const port = onListening && listening.exec(tail)?.[1];
    if (port) onListening?.(Number(port));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`anvil did not listen within ${START_TIMEOUT_MS} ms:\n${tail}`)), START_TIMEOUT_MS);
      onListening = (port) => {
        clearTimeout(timer);
        resolve(port);
      };
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`anvil exited (${code ?? child.signalCode}) before it listened:\n${tail}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    onListening = undefined;
  }

  let stopping: Promise<void> | undefined;
  return {
    rpcUrl: `http://${host}:${port}`,
    port,
    chainId,
    pid: child.pid!,
    exited,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        // A stopped (SIGSTOP) node would not act on SIGTERM until continued.
        if (process.platform !== 'win32') child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
