// One PGlite folder belongs to one process: a second gateway on the same folder refuses to start and says which
// process holds it; once the first is gone (even SIGKILLed), the folder is free again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FolderLockedError, lockFolder } from '../../src/sandbox/storage/folder-lock.js';
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

describe('the lock is the kernel\'s, on the real path', () => {
  let folder: string;
  const releases: (() => Promise<void>)[] = [];
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-lock-'));
  });
  after(async () => {
    for (const release of releases) await release();
    await rm(folder, { recursive: true, force: true });
  });
  const take = async (path: string) => {
    const release = await lockFolder(path);
    releases.push(release);
    return release;
  };

  it('is one lock for a folder named with a trailing slash, through a symlink, or with dots', async () => {
    const db = join(folder, 'db');
    const release = await take(db);
    await symlink(db, join(folder, 'alias'));
    for (const other of [`${db}/`, join(folder, 'alias'), join(folder, '.', 'x', '..', 'db')]) {
      await assert.rejects(lockFolder(other), (error: Error) => error instanceof FolderLockedError && /in use by process \d+/.test(error.message), other);
    }
    await release();
    await take(`${db}/`);
  });

  it('is not fooled by a lock file naming a live process that holds nothing (a reused pid, a zombie)', async () => {
    const db = join(folder, 'reused');
    await mkdir(db);
    await writeFile(`${db}.lock`, `${process.ppid}\n`);
    await take(db);
  });

  it('goes to exactly one of many simultaneous takers, with or without a stale lock file', async () => {
    for (const stale of [false, true]) {
      const db = join(folder, `race-${stale}`);
      await mkdir(db);
      if (stale) await writeFile(`${db}.lock`, '999999\n');
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => lockFolder(db)));
      for (const o of outcomes) if (o.status === 'fulfilled') releases.push(o.value);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, `stale: ${stale}`);
    }
  });
});
