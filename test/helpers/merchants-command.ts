// The operator's merchants command in a process of its own, to its exit: from the sources as `npm run merchants` runs
// it, or from the compiled gateway as the image does (`node dist/gateway/merchants.js`).
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runMerchants(args: string[], env: NodeJS.ProcessEnv, options: { command?: string[]; cwd?: string } = {}): Promise<CommandRun> {
  const command = options.command ?? ['--import', 'tsx', 'src/sandbox/merchants-main.ts'];
  const child = spawn(process.execPath, [...command, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}
