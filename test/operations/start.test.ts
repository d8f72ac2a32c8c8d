// Starting the gateway as an operator does (`node --import tsx src/sandbox/main.ts`, the `npm run gateway` command): a
// configuration it cannot run with stops the start with one line per variable that is wrong, no stack trace, exit 1;
// a database that never answers fails the start within the connect timeout; the banner never prints a secret an
// operator set; the data key must open what the database sealed, and a previous key lets it rotate. A live start
// (GATEWAY_ENV=live) is refused for each simulated network, each sandbox value set and each public key, all named at once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import { DEFAULT_SANDBOX_SEED_HEX } from '../../src/codecs/addresses.js';
import { loadConfig, SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { SANDBOX_DATA_KEY, SANDBOX_PAYOUT_SEED_HEX, SANDBOX_WALLET_SEED_HEX } from '../../src/sandbox/config/public-keys.js';
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
function refused(result: Run, title = 'pay-checkout sandbox gateway'): string[] {
  assert.equal(result.code, 1, `exit code; stderr:\n${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  for (const line of lines) {
    assert.ok(line.startsWith(`${title} cannot start: `), line);
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
      [{ TRON_RPC_URL: 'ftp://tron.example/jsonrpc' }, /TRON_RPC_URL must be an http\(s\) URL of a JSON-RPC node/],
      [{ TRON_RPC_URL: 'http://127.0.0.1:9/jsonrpc', TRON_CHAIN_ID: 'nile' }, /TRON_CHAIN_ID must be a chain id in hex, such as 0xcd8690dc \(Nile\)/],
      [{ TRON_RPC_URL: 'http://127.0.0.1:9/jsonrpc', TRON_USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T' }, /TRON_USDT_CONTRACT must be a TRON address \(base58check, starting with T\)/],
      [{ TRON_RPC_URL: 'http://127.0.0.1:9/jsonrpc', TRON_CHAIN_ID: '0x1234' }, /TRON_USDT_CONTRACT must be set for chain 0x1234/],
      [{ TRON_USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, /TRON_USDT_CONTRACT is set, but TRON_RPC_URL is not/],
      [{ TRON_RPC_URL: 'http://127.0.0.1:9/jsonrpc', TRON_CROSSCHECK_MS: '50' }, /TRON_CROSSCHECK_MS must be a whole number from 100, got 50/],
      [{ DATABASE_URL: 'not-a-url' }, /DATABASE_URL is not a URL; it must be postgres:\/\//],
      [{ DATABASE_URL: 'mysql://root:hunter2@db/shop' }, /DATABASE_URL is a mysql: URL; it must be postgres:\/\/ or postgresql:\/\//],
      [{ DATABASE_URL: 'postgres://u@h1:5432,h2:99999/db' }, /DATABASE_URL has a port 99999 that is not between 1 and 65535/],
      [{ DATABASE_URL: 'postgres://u@h1,h2/db?target_session_attrs=standby' }, /DATABASE_URL has target_session_attrs=standby; it may be any or read-write/],
      [{ SANDBOX_RATE_USDT: 'abc' }, /SANDBOX_RATE_USDT must be a positive decimal number of VND, got abc/],
      [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535, got 70000/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be fatal, error, warn, info, debug, trace, silent, got loud/],
      [{ PAYOUT_DAILY_CAP_VND: '1e6' }, /PAYOUT_DAILY_CAP_VND must be a whole number of VND in digits \(0 or more\), got 1e6/],
      [{ PAYOUT_DAILY_CAP_VND: '-500' }, /PAYOUT_DAILY_CAP_VND must be a whole number of VND in digits \(0 or more\), got -500/],
      [{ HD_XPUB_TRON: HDKey.fromMasterSeed(new Uint8Array(32).fill(1)).derive("m/44'/195'/0'").privateExtendedKey }, /HD_XPUB_TRON is a private key/],
      // An entry lost in editing, and a delay the stop's timeout would always cut short.
      [{ GATEWAY_DATA_KEYS_PREVIOUS: ',,' }, /GATEWAY_DATA_KEYS_PREVIOUS has an empty entry \(3 entries, 3 empty\)/],
      [{ GATEWAY_DATA_KEYS_PREVIOUS: `${'ab'.repeat(32)},` }, /GATEWAY_DATA_KEYS_PREVIOUS has an empty entry \(2 entries, 1 empty\)/],
      [{ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '2000' }, /SHUTDOWN_DELAY_MS \(5000\) must not exceed SHUTDOWN_TIMEOUT_MS \(2000\)/],
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

  it('names each network and where its facts come from, a node by its origin only', async () => {
    const result = await run({ TRON_RPC_URL: 'http://tron-user:tron-secret@127.0.0.1:9/jsonrpc?apikey=tron-key', TRON_API_KEY: 'another-tron-key' });
    assert.equal(result.code, 0, result.stderr);
    const [line] = result.stdout.split('\n').filter((l) => l.startsWith('Networks: '));
    assert.equal(line, 'Networks: TRON Nile (TRON) on a node at http://127.0.0.1:9; Ethereum Sepolia (ETHEREUM) simulated; Bitcoin (BITCOIN) simulated.');
    assert.doesNotMatch(result.stdout, /tron-secret|tron-key|tron-user/);
  });

  it('says a port in use is in use', async () => {
    const [line] = refused(await run({ PORT: String(portOf(busy)) }));
    assert.match(line!, new RegExp(`PORT ${portOf(busy)} on HOST 127\\.0\\.0\\.1 is in use by another process`));
  });

  it('warns, in one line each, of a variable it does not read that looks like one of its own, and starts; never of the ordinary ones', async () => {
    const result = await run({ ...MISSPELLED, ...ORDINARY, LOG_FORMAT: 'json' });
    assert.equal(result.code, 0, result.stderr);
    const warned = result.stderr.trim().split('\n').map((line) => JSON.parse(line) as { level: string; variable?: string; nearest?: string; msg: string }).filter((line) => line.variable);
    assert.deepEqual(warned.map(({ level, variable, nearest }) => [level, variable, nearest]).sort(), Object.entries(NEAREST).map(([name, nearest]) => ['warn', name, nearest]).sort());
    for (const line of warned) assert.match(line.msg, new RegExp(`^${line.variable} is not a variable the gateway reads \\(the nearest it reads: ${line.nearest}\\)`));
  });

  it('prints the sandbox credentials only while they are the public defaults', async () => {
    const defaults = await run({});
    assert.match(defaults.stdout, /public defaults/);
    assert.match(defaults.stdout, /\(storage: pglite, in memory: everything is lost when the process stops; DATABASE_URL or PGLITE_DIR keeps it\)/);
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
    assert.match(own.stdout, /Data key {7}GATEWAY_DATA_KEY \(key [0-9a-f]{16}\)\n/);
    assert.match(own.stdout, /Addresses {6}TRON from extended public keys \(HD_XPUB_\*\): no private key here/);
    assert.match(own.stdout, /Addresses {6}ETHEREUM, BITCOIN from the public sandbox HD seed/);
    assert.match(own.stdout, /Payouts {8}each merchant's payout wallet, at its own account of the public sandbox seed .*, at most 100,000,000 VND a merchant in any 24 h/);
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

/** Misspelled or unknown names of the gateway's, and the known name each is nearest to. */
const NEAREST = { DATABSE_URL: 'DATABASE_URL', GATEWAY_DATA_KY: 'GATEWAY_DATA_KEY', HD_XPUB_TRX: 'HD_XPUB_TRON', PAYOUT_SEED: 'PAYOUT_HD_SEED', sandbox_chain: 'SANDBOX_CHAIN', SANDBOX_RATE_USTD: 'SANDBOX_RATE_USDT' };
const MISSPELLED: Record<string, string> = { DATABSE_URL: 'postgres://u@127.0.0.1:9/db', GATEWAY_DATA_KY: 'x', HD_XPUB_TRX: 'x', PAYOUT_SEED: 'x', sandbox_chain: 'anvil', SANDBOX_RATE_USTD: '26000' };
/** Other software's variables, some a few edits from the gateway's (HOME from HOST, PGPORT from PORT): never a word about them. */
const ORDINARY: Record<string, string> = {
  HOME: process.env.HOME ?? '/root', CI: '1', npm_config_cache: '/tmp/npm', npm_lifecycle_event: 'test', NODE_ENV: 'production', HOSTNAME: 'gw-1',
  PGHOST: '127.0.0.1', PGPORT: '5432', PGUSER: 'pay', PGPASSWORD: 'pw', PGDATABASE: 'pay', PGSSLMODE: 'disable', TEST_DATABASE_URL: 'postgres://u@127.0.0.1:9/db', LOG_FILE: '/tmp/x',
};

/** A live data key with 32 bytes of entropy (`openssl rand -hex 32`'s shape). */
const LIVE_KEY = '9f3c2a7b41d8e6f05c1b9a8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f';

describe('starting a live gateway', () => {
  let folder: string;
  /** A live configuration with nothing to refuse: Ethereum on a node (none runs: each case is refused before it is asked), keys of its own. */
  let live: Record<string, string>;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-live-start-'));
    const rateSources = join(folder, 'rates.json');
    await writeFile(rateSources, JSON.stringify({ sources: [{ id: 'desk', kind: 'fixed', pairs: { 'ETH/VND': '92000000', 'USDT/VND': '26350' } }], assets: { ETH: {}, USDT: {} } }));
    live = {
      GATEWAY_ENV: 'live',
      NETWORKS: 'ETHEREUM',
      ETHEREUM_RPC_URL: 'http://127.0.0.1:9',
      RATE_SOURCES: rateSources,
      GATEWAY_DATA_KEY: LIVE_KEY,
      PAYOUT_HD_SEED: '22'.repeat(32),
    };
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const accountXpub = (seed: Uint8Array, path: string) => HDKey.fromMasterSeed(seed).derive(path).publicExtendedKey;
  const sandboxSeed = Buffer.from(DEFAULT_SANDBOX_SEED_HEX, 'hex');
  /** Each line's subject: the variable or network it names first. */
  const subjects = (lines: string[]) => lines.map((line) => /cannot start: (\w+)/.exec(line)![1]).sort();

  it('takes the live configuration it is given, with nothing of the sandbox in it', () => {
    const config = loadConfig(live);
    assert.equal(config.environment, 'live');
    assert.deepEqual(config.networks.map((n) => n.id), ['ETHEREUM']);
  });

  it('refuses each simulated network, sandbox value, public key and missing key in one line that names it, with exit code 1', async () => {
    const unset = (name: string) => ({ [name]: '' });
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...unset('ETHEREUM_RPC_URL') }, /ETHEREUM is simulated: live watches every network on a node; configure one for it \(docs\/networks\.md\) or leave it out of NETWORKS$/],
      [{ NETWORKS: 'ETHEREUM,TRON' }, /TRON is simulated: live watches every network on a node/],
      [{ NETWORKS: 'ETHEREUM,DOGE' }, /NETWORKS names DOGE, which is not a configured network \(configured: TRON, ETHEREUM, BITCOIN\)$/],
      [{ SANDBOX_CLIENT_ID: SANDBOX_DEFAULTS.clientId }, /SANDBOX_CLIENT_ID is set, which live refuses: live has no sandbox merchant/],
      [{ SANDBOX_CLIENT_SECRET: SANDBOX_DEFAULTS.clientSecret }, /SANDBOX_CLIENT_SECRET is set, which live refuses/],
      [{ SANDBOX_MERCHANT_KEY: 'an-operator-merchant-key' }, /SANDBOX_MERCHANT_KEY is set, which live refuses/],
      [{ SANDBOX_HD_SEED: DEFAULT_SANDBOX_SEED_HEX }, /SANDBOX_HD_SEED is set, which live refuses: live holds no receiving private key/],
      [{ SANDBOX_WALLET_SEED: SANDBOX_WALLET_SEED_HEX }, /SANDBOX_WALLET_SEED is set, which live refuses: live has no test wallet$/],
      [{ SANDBOX_WEBHOOK_URL: 'https://shop.example/hooks' }, /SANDBOX_WEBHOOK_URL is set, which live refuses/],
      [{ SANDBOX_SECRETLESS_SIGN_IN: '1' }, /SANDBOX_SECRETLESS_SIGN_IN is set, which live refuses/],
      [{ SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1' }, /SANDBOX_ALLOW_LOCAL_WEBHOOKS is set, which live refuses/],
      [{ SANDBOX_CHAIN: 'anvil' }, /SANDBOX_CHAIN is set, which live refuses/],
      [{ ...unset('GATEWAY_DATA_KEY') }, /GATEWAY_DATA_KEY is required in live/],
      [{ GATEWAY_DATA_KEY: SANDBOX_DATA_KEY }, /GATEWAY_DATA_KEY is the public sandbox key/],
      // Short, a sentence, a repeated pattern: under 32 bytes of entropy.
      [{ GATEWAY_DATA_KEY: 'an operator data key' }, /GATEWAY_DATA_KEY holds about \d+ bytes of entropy, and live requires 32: `openssl rand -base64 32` makes one/],
      [{ GATEWAY_DATA_KEY: 'the operator data key of this test' }, /GATEWAY_DATA_KEY holds about \d+ bytes of entropy, and live requires 32/],
      [{ GATEWAY_DATA_KEY: 'ab'.repeat(64) }, /GATEWAY_DATA_KEY holds about 0 bytes of entropy, and live requires 32/],
      [{ ...unset('PAYOUT_HD_SEED') }, /PAYOUT_HD_SEED is required in live/],
      [{ PAYOUT_HD_SEED: SANDBOX_PAYOUT_SEED_HEX }, /PAYOUT_HD_SEED is a public sandbox seed/],
      [{ PAYOUT_HD_SEED: DEFAULT_SANDBOX_SEED_HEX.toUpperCase() }, /PAYOUT_HD_SEED is a public sandbox seed/],
      [{ ...unset('RATE_SOURCES') }, /RATE_SOURCES is required in live: the sandbox's rates are made up/],
      // Receiving keys are each merchant's (npm run merchants -- set-xpub): one for the whole process is refused.
      [{ HD_XPUB_EVM: accountXpub(new Uint8Array(32).fill(4), "m/44'/60'/0'") }, /HD_XPUB_EVM is set, which live refuses: receiving keys are per merchant in live \(npm run merchants -- set-xpub\)$/],
      [{ HD_XPUB_TRON: accountXpub(new Uint8Array(32).fill(4), "m/44'/195'/0'") }, /HD_XPUB_TRON is set, which live refuses: receiving keys are per merchant/],
    ];
    const results: Run[] = [];
    // Four at a time: each is a process of its own, on a machine that runs other tests beside.
    for (let i = 0; i < cases.length; i += 4) results.push(...(await Promise.all(cases.slice(i, i + 4).map(([env]) => run({ ...live, ...env })))));
    for (const [i, [env, expected]] of cases.entries()) {
      const lines = refused(results[i]!, 'pay-checkout gateway');
      // Each case one line: TRON taken adds its own only, no key being asked of it.
      assert.equal(lines.length, 1, `${JSON.stringify(env)}:\n${lines.join('\n')}`);
      assert.match(lines[0]!, expected);
      for (const secret of [LIVE_KEY, '22'.repeat(32), SANDBOX_DEFAULTS.clientSecret, 'an-operator-merchant-key']) assert.ok(!lines[0]!.includes(secret), `${secret} printed`);
    }
  });

  it('refuses a variable it does not read that looks like one of its own, in one line naming it and the nearest it reads; never the ordinary ones', async () => {
    const lines = refused(await run({ ...live, ...MISSPELLED, ...ORDINARY }), 'pay-checkout gateway');
    assert.deepEqual(subjects(lines), Object.keys(NEAREST).sort());
    for (const line of lines) {
      const [, name, nearest] = /cannot start: (\w+) is not a variable the gateway reads \(the nearest it reads: (\w+)\)/.exec(line)!;
      // ETHEREUM, the one network here, takes ETH alone: no SANDBOX_RATE_USDT to be near.
      assert.equal(nearest, { ...NEAREST, SANDBOX_RATE_USTD: 'SANDBOX_RATE_ETH' }[name!], line);
    }
    assert.equal(loadConfig({ ...live, ...ORDINARY }).environment, 'live');
  });

  it('names every refusal at once, one line each', async () => {
    // Nothing but GATEWAY_ENV: every network simulated, no key, no rate source.
    assert.deepEqual(subjects(refused(await run({ GATEWAY_ENV: 'live' }), 'pay-checkout gateway')), [
      'BITCOIN', 'ETHEREUM', 'GATEWAY_DATA_KEY', 'PAYOUT_HD_SEED', 'RATE_SOURCES', 'TRON',
    ]);
    // Every public value of the sandbox given at once.
    const everyPublic = {
      ...live,
      SANDBOX_CLIENT_ID: SANDBOX_DEFAULTS.clientId,
      SANDBOX_CLIENT_SECRET: SANDBOX_DEFAULTS.clientSecret,
      SANDBOX_MERCHANT_KEY: SANDBOX_DEFAULTS.merchantKey,
      SANDBOX_HD_SEED: DEFAULT_SANDBOX_SEED_HEX,
      SANDBOX_WALLET_SEED: SANDBOX_WALLET_SEED_HEX,
      GATEWAY_DATA_KEY: SANDBOX_DATA_KEY,
      PAYOUT_HD_SEED: SANDBOX_PAYOUT_SEED_HEX,
      HD_XPUB_EVM: accountXpub(sandboxSeed, "m/44'/60'/0'"),
    };
    assert.deepEqual(subjects(refused(await run(everyPublic), 'pay-checkout gateway')), [
      'GATEWAY_DATA_KEY', 'HD_XPUB_EVM', 'PAYOUT_HD_SEED', 'SANDBOX_CLIENT_ID', 'SANDBOX_CLIENT_SECRET', 'SANDBOX_HD_SEED', 'SANDBOX_MERCHANT_KEY', 'SANDBOX_WALLET_SEED',
    ]);
  });
});
