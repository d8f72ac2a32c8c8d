// The image as the Dockerfile makes it, outside a container (no container engine where this is developed): the
// compiled gateway built by the build step that makes it (`npm run build:gateway`, part of the build stage's
// `npm run build`; the element was built by `npm run build` before the tests), the final stage's files copied where its
// COPY lines put them and nothing else (no TypeScript, no node_modules but PGlite), then its CMD with its ENV. A smoke
// subset of the gateway suites runs against it over HTTP (test/gateway/smoke.test.ts: a link paid and partly refunded;
// the element and the hosted page served; readiness and metrics); the operator's merchants command runs from it on the
// gateway's database; its HEALTHCHECK passes; SIGTERM ends it with exit 0.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MerchantClient } from '../../src/merchant/index.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { runMerchants, type CommandRun } from '../helpers/merchants-command.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';

interface FinalStage {
  env: Record<string, string>;
  /** [source in the build stage, destination under WORKDIR] */
  copies: [string, string][];
  cmd: string[];
  healthcheck: string[];
  user: string;
}

/** The last stage of the Dockerfile: what the running image holds and how it starts. */
function finalStage(dockerfile: string): FinalStage {
  const stages = dockerfile.replace(/\\\n/g, ' ').split(/^FROM /m);
  const lines = stages.at(-1)!.split('\n').map((line) => line.trim());
  const stage: FinalStage = { env: {}, copies: [], cmd: [], healthcheck: [], user: 'root' };
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (instruction === 'ENV') for (const pair of rest) stage.env[pair.split('=')[0]!] = pair.slice(pair.indexOf('=') + 1);
    if (instruction === 'COPY' && rest[0] === '--from=build') {
      const paths = rest.slice(1);
      const destination = paths.pop()!;
      for (const source of paths) stage.copies.push([source, destination]);
    }
    if (instruction === 'CMD') stage.cmd = JSON.parse(rest.join(' ')) as string[];
    if (instruction === 'HEALTHCHECK') stage.healthcheck = JSON.parse(line.slice(line.indexOf('CMD ') + 4)) as string[];
    if (instruction === 'USER') stage.user = rest[0]!;
  }
  return stage;
}

describe(`the gateway's image, started as its Dockerfile says (${storageName})`, () => {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const schema = `image_${randomBytes(4).toString('hex')}`;
  let root: string;
  let stage: FinalStage;
  let gateway: GatewayProcess;
  /** Where the gateway keeps its data: a PGlite folder of the image's volume, or a schema of the PostgreSQL server. */
  let storage: Record<string, string>;

  before(async () => {
    stage = finalStage(await readFile('Dockerfile', 'utf8'));
    execFileSync('npm', ['run', '--silent', 'build:gateway'], { stdio: 'inherit' });
    root = await mkdtemp(join(tmpdir(), 'pay-checkout-image-'));
    // The build stage works in /app: its paths are this repository's.
    for (const [source, destination] of stage.copies) await cp(source.replace(/^\/app\//, ''), join(root, destination), { recursive: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
    }
    storage = databaseUrl ? { DATABASE_URL: urlInSchema(databaseUrl, schema) } : { PGLITE_DIR: join(root, 'data', 'pglite') };
    gateway = await startGatewayProcess(
      { ...stage.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', SANDBOX_BLOCK_INTERVAL_MS: '0', ...storage },
      // A first start on an empty volume: the image's own migrations make the store.
      { command: stage.cmd.slice(1), cwd: root, captureLogs: true, freshPglite: true },
    );
  });
  after(async () => {
    await gateway?.kill();
    await rm(root, { recursive: true, force: true });
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('runs as node, unprivileged, from the compiled gateway alone', async () => {
    assert.deepEqual(stage.cmd, ['node', 'dist/gateway/main.js']);
    assert.equal(stage.user, 'node');
    assert.deepEqual((await readdir(root)).sort(), ['data', 'dist', 'node_modules'].filter((name) => name !== 'data' || !databaseUrl));
    assert.deepEqual(await readdir(join(root, 'node_modules')), ['@electric-sql']);
    assert.ok((await readdir(join(root, 'dist', 'gateway', 'migrations'))).length > 0, 'the migrations ship beside the gateway');
  });

  it('names the TypeScript sources in the stacks it logs, through the source maps it ships', async () => {
    // A start that fails on a database no one serves logs its error, with the stack, at debug (src/sandbox/start.ts).
    const child = spawn(process.execPath, stage.cmd.slice(1), {
      cwd: root,
      env: { PATH: process.env.PATH, ...stage.env, PORT: '0', LOG_LEVEL: 'debug', LOG_FORMAT: 'json', DATABASE_URL: 'postgres://u@127.0.0.1:9/db', DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 1, stderr);
    const failed = stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; err?: { stack: string } }).find((line) => line.msg === 'start failed');
    assert.ok(failed?.err, stderr);
    const [, first] = failed.err.stack.split('\n');
    assert.match(first!, /^\s+at .*\/src\/sandbox\/storage\/postgres\.ts:\d+:\d+\)$/);
    assert.doesNotMatch(failed.err.stack, /dist\/gateway\//);
  });

  it('creates a link, takes its payment, refunds part of the paid order and lists the refund', async () => {
    const client = new MerchantClient({ baseUrl: gateway.url, ...SANDBOX_DEFAULTS });
    const link = await client.createPaymentLink(sampleLink({ merchant_order_id: 'image-1' }));
    const checkout = checkoutApi(gateway.url, link.payment_link_ref);
    const { status, body: payment } = await checkout.open('USDT', 'TRON');
    assert.equal(status, 201);
    assert.equal((await sandboxApi(gateway.url).transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto)).status, 201);
    assert.equal((await sandboxApi(gateway.url).mine(payment.confirmations_required, 'TRON')).status, 200);
    let view = (await checkout.view()).body;
    for (let i = 0; i < 100 && view.status !== 'paid'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = (await checkout.view()).body;
    }
    assert.equal(view.status, 'paid');
    const list = await client.createRefund('image-1', { amount: 60_000, channel: 'PROVIDER', description: 'one bag returned', refund_type: 'partial', refund_reason: 'damaged' });
    assert.equal(list.refundDetails.length, 1);
    assert.equal(list.refundDetails[0]!.amount, 60_000);
    assert.deepEqual(await client.getRefunds('image-1'), list);
  });

  it('serves the element and the hosted checkout page', async () => {
    const script = await fetch(`${gateway.url}/pay-checkout.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('Content-Type')!, /javascript/);
    assert.match(await script.text(), /pay-checkout/);
    const link = await new MerchantClient({ baseUrl: gateway.url, ...SANDBOX_DEFAULTS }).createPaymentLink(sampleLink());
    const page = await fetch(`${gateway.url}/checkout?ref=${link.payment_link_ref}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<pay-checkout/);
  });

  it("runs the operator's merchants command from the compiled gateway, on the gateway's database", async () => {
    // In a process of its own, waited for without blocking: the gateway's connections stay served meanwhile.
    const command = (args: string[], env: Record<string, string>) =>
      runMerchants(args, { PATH: process.env.PATH, ...stage.env, ...env }, { command: ['dist/gateway/merchants.js'], cwd: root });
    let added: CommandRun;
    if (databaseUrl) {
      added = await command(['add', '--name', 'Image Merchant', '--json'], storage);
    } else {
      // The running gateway holds its PGlite folder: the command is refused it, and works on a folder of its own.
      const held = await command(['list', '--json'], storage);
      assert.equal(held.code, 1, held.stderr);
      assert.match(held.stderr, /is in use by process \d+: one folder belongs to one gateway/);
      added = await command(['add', '--name', 'Image Merchant', '--json'], { PGLITE_DIR: join(root, 'data', 'merchants') });
    }
    assert.equal(added.code, 0, added.stderr);
    const merchant = JSON.parse(added.stdout) as { client_id: string; client_secret: string; merchant_key: string };
    if (databaseUrl) {
      // A merchant the command added signs in to the gateway that runs on the same database.
      const client = new MerchantClient({ baseUrl: gateway.url, clientId: merchant.client_id, clientSecret: merchant.client_secret, merchantKey: merchant.merchant_key });
      assert.match((await client.createPaymentLink(sampleLink())).payment_link_ref, /\w/);
    }
  });

  it('is ready, reports its metrics, passes its HEALTHCHECK, and stops on SIGTERM with exit 0', async () => {
    const ready = await fetch(`${gateway.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { ready: boolean }).ready, true);
    assert.match(await (await fetch(`${gateway.url}/metrics`)).text(), /^pay_checkout_http_request_duration_seconds_count\{/m);
    const [command, ...args] = stage.healthcheck;
    assert.equal(command, 'node');
    execFileSync(process.execPath, args, { env: { PATH: process.env.PATH, PORT: new URL(gateway.url).port }, stdio: 'inherit' });
    // Exit 0 is a stop finished within SHUTDOWN_TIMEOUT_MS: past it, the process exits 1 (src/sandbox/start.ts).
    const { code } = await gateway.stop('SIGTERM');
    assert.equal(code, 0, gateway.logs());
  });
});
