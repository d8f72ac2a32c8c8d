// What a failover run puts on the database: two gateway processes (the sandbox gateway, `npm run gateway`) and the
// merchant's webhook receiver, which counts each event id it is sent.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { onCleanUp } from './cleanups.mjs';

/** A gateway on `env`, its stderr (the log) appended to `logFile`; resolves with its URL once it listens. */
export async function startGateway(env, logFile) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onCleanUp(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  child.stderr.on('data', (chunk) => appendFileSync(logFile, chunk));
  let out = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    out += chunk;
    const url = /on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) {
      child.stdout.resume();
      return url;
    }
  }
  throw new Error(`a gateway exited before it listened:\n${out}${readFileSync(logFile, 'utf8')}`);
}

/** The receiver: its URL, and the `Pay-Checkout-Event-Id` of every delivery in the order they came. */
export async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    received.push(request.headers['pay-checkout-event-id']);
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanUp(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, received };
}
