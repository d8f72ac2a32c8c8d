// Starting the gateway as an operator does (`node --import tsx src/sandbox/main.ts`, the `npm run gateway` command): a
// configuration it cannot run with stops the start with one line per variable that is wrong, no stack trace, exit 1;
// a database that never answers fails the start within the connect timeout; the banner never prints a secret an
// operator set; the data key must open what the database sealed, and a previous key lets it rotate.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import { SANDBOX_DATA_KEY } from '../../src/sandbox/config.js';
import { seedPgliteFolder } from '../helpers/pglite-image.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the gateway with `env` until it prints its banner (then stops it) or exits. */
async function run(env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
    env: { ...process.env, PORT: '0', SANDBOX_BLOCK_INTERVAL_MS: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (/^Keys this process holds:[\s\S]*\n\n/m.test(stdout)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** A start refused: exit 1, and each line on stderr one plain sentence (no stack trace, no JSON). */
function refused(result: Run): string[] {
  assert.equal(result.code, 1, `exit code; stderr:\n${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  for (const line of lines) {
    assert.match(line, /^pay-checkout sandbox gateway cannot start: /);
    assert.doesNotMatch(line, /^\s+at |\{"level"/);
  }
  return lines;
}

describe('starting the gateway', () => {
  let silent: Server;
  let busy: Server;
  let folder: string;
  before(async () => {
    // A database address that takes connections and never answers them.
    silent = createServer(() => undefined).listen(0, '127.0.0.1');
    busy = createServer().listen(0, '127.0.0.1');
    await Promise.all([once(silent, 'listening'), once(busy, 'listening')]);
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-start-'));
  });
  after(async () => {
    silent.close();
    busy.close();
    await rm(folder, { recursive: true, force: true });
  });
  const portOf = (server: Server) => (server.address() as { port: number }).port;

  it('refuses each bad variable in one line that names it and says what is allowed, with exit code 1', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ DATABASE_URL: 'not-a-url' }, /DATABASE_URL is not a URL; it must be postgres:\/\//],
      [{ DATABASE_URL: 'mysql://root:hunter2@db/shop' }, /DATABASE_URL is a mysql: URL; it must be postgres:\/\/ or postgresql:\/\//],
      [{ DATABASE_URL: 'postgres://u@h1:5432,h2:99999/db' }, /DATABASE_URL has a port 99999 that is not between 1 and 65535/],
      [{ DATABASE_URL: 'postgres://u@h1,h2/db?target_session_attrs=standby' }, /DATABASE_URL has target_session_attrs=standby; it may be any or read-write/],
      [{ SANDBOX_RATE_USDT: 'abc' }, /SANDBOX_RATE_USDT must be a positive decimal number of VND, got abc/],
      [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535, got 70000/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be fatal, error, warn, info, debug, trace, silent, got loud/],
      [{ HD_XPUB_TRON: HDKey.fromMasterSeed(new Uint8Array(32).fill(1)).derive("m/44'/195'/0'").privateExtendedKey }, /HD_XPUB_TRON is a private key/],
    ];
    const results = await Promise.all(cases.map(([env]) => run(env)));
    for (const [i, [, expected]] of cases.entries()) {
      const lines = refused(results[i]!);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, expected);
      assert.doesNotMatch(lines[0]!, /hunter2/);
    }
  });

  it('names every bad variable at once, one line each', async () => {
    const lines = refused(await run({ PORT: 'x', DATABASE_POOL_MAX: '0', SHUTDOWN_TIMEOUT_MS: '-1' }));
    assert.deepEqual(
      lines.map((line) => /cannot start: (\w+)/.exec(line)![1]).sort(),
      ['DATABASE_POOL_MAX', 'PORT', 'SHUTDOWN_TIMEOUT_MS'],
    );
  });

  // A start that hung would run into the test's own timeout.
  it('fails within the connect timeout on a database address that never answers, and says which', { timeout: 60_000 }, async () => {
    const result = await run({ DATABASE_URL: `postgres://u:pw@127.0.0.1:${portOf(silent)}/db`, DATABASE_CONNECT_TIMEOUT_MS: '1000' });
    const [line] = refused(result);
    assert.match(line!, new RegExp(`the database at 127\\.0\\.0\\.1:${portOf(silent)}/db cannot be reached: .*timeout`, 'i'));
  });

  it('says a port in use is in use', async () => {
    const [line] = refused(await run({ PORT: String(portOf(busy)) }));
    assert.match(line!, new RegExp(`PORT ${portOf(busy)} on HOST 127\\.0\\.0\\.1 is in use by another process`));
  });

  it('prints the sandbox credentials only while they are the public defaults', async () => {
    const defaults = await run({});
    assert.match(defaults.stdout, /public defaults/);
    assert.match(defaults.stdout, /^Rates: the sandbox's fixed ones \(SANDBOX_RATE_\*\)/m);
    assert.match(defaults.stdout, /Client Secret {2}sandbox_secret_/);
    const xpub = HDKey.fromMasterSeed(new Uint8Array(32).fill(2)).derive("m/44'/195'/0'").publicExtendedKey;
    const own = await run({
      SANDBOX_CLIENT_SECRET: 'operator-secret-123456',
      SANDBOX_MERCHANT_KEY: 'operator-key-654321',
      GATEWAY_DATA_KEY: 'operator data key',
      HD_XPUB_TRON: xpub,
    });
    assert.equal(own.code, 0, own.stderr);
    for (const secret of ['operator-secret-123456', 'operator-key-654321', 'operator data key']) {
      assert.ok(!own.stdout.includes(secret) && !own.stderr.includes(secret), `${secret} printed`);
    }
    assert.match(own.stdout, /Client Secret {2}\(set by SANDBOX_CLIENT_SECRET; not printed\)/);
    assert.match(own.stdout, /ClientId {7}sandbox_client/);
    // Which keys it holds, by name: TRON's addresses from the xpub, the rest from the (public) seed, the signing wallets.
    assert.match(own.stdout, /Data key {7}GATEWAY_DATA_KEY\n/);
    assert.match(own.stdout, /Addresses {6}TRON from extended public keys \(HD_XPUB_\*\): no private key here/);
    assert.match(own.stdout, /Addresses {6}ETHEREUM, BITCOIN from the public sandbox HD seed/);
    assert.match(own.stdout, /Payouts {8}the hot wallet's private keys \(the public sandbox seed/);
  });

  it('stops a start whose data key opens nothing the database sealed, and rotates with the previous key listed', async () => {
    const env = { PGLITE_DIR: join(folder, 'pglite') };
    await seedPgliteFolder(env.PGLITE_DIR);
    assert.equal((await run(env)).code, 0);
    const [line] = refused(await run({ ...env, GATEWAY_DATA_KEY: 'a new key' }));
    assert.match(line!, /GATEWAY_DATA_KEY opens none of the \d+ secrets this database holds sealed .*GATEWAY_DATA_KEYS_PREVIOUS/);
    // The rotation: the new key with the old one listed; what the old sealed is sealed again, so the new one suffices after.
    const rotating = await run({ ...env, GATEWAY_DATA_KEY: 'a new key', GATEWAY_DATA_KEYS_PREVIOUS: SANDBOX_DATA_KEY });
    assert.equal(rotating.code, 0, rotating.stderr);
    assert.equal((await run({ ...env, GATEWAY_DATA_KEY: 'a new key' })).code, 0);
    refused(await run(env));
  });
});
