// A gateway in a process of its own (`src/sandbox/main.ts`, timers on), for what one process cannot show:
// two gateways on one database, and a gateway killed mid-flight.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface GatewayProcess {
  url: string;
  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  kill(): Promise<void>;
}

/** The PostgreSQL URL that makes a process work in `schema` (main.ts has no schema setting of its own). */
export function urlInSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const exited = once(child, 'exit');
  while (!/on (http:\/\/\S+)/.test(out)) {
    const chunk = await Promise.race([once(child.stdout, 'data'), exited.then(() => undefined)]);
    if (!chunk) throw new Error(`the gateway process exited before it listened:\n${out}`);
    out += chunk[0];
  }
  return {
    url: /on (http:\/\/\S+)/.exec(out)![1]!,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
