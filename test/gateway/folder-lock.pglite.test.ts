// One PGlite folder belongs to one process: a second gateway on the same folder refuses to start and says which
// process holds it; once the first is gone (even SIGKILLed), the folder is free again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';

describe('a PGlite folder locked to one process', () => {
  let folder: string;
  let first: GatewayProcess | undefined;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-lock-'));
  });
  after(async () => {
    await first?.kill();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses a second process on the same folder, naming the one that holds it, and frees it when that one dies', async () => {
    const env = { PGLITE_DIR: join(folder, 'pglite') };
    first = await startGatewayProcess(env);
    const second = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(second, 'exit')) as [number];
    assert.equal(code, 1);
    assert.match(output, /in use by process \d+/);
    assert.doesNotMatch(output, /listening|on http:/);
    const holder = Number(/process (\d+)/.exec(output)![1]);
    assert.notEqual(holder, second.pid);

    await first.kill();
    first = await startGatewayProcess(env);
    assert.match(first.url, /^http:/, 'the folder of a killed process is taken over');
  });
});
