// A live gateway (GATEWAY_ENV=live) as an operator starts it (`node --import tsx src/sandbox/main.ts`): Ethereum on a
// node (anvil), TRON and Bitcoin left out by NETWORKS, fixed rates the operator chose, keys of its own. It serves no
// sandbox surface: every /sandbox route (the tester panel, the wallet and its faucet, mining, each expiry shortcut) and
// anything else under /sandbox answers 404 exactly as an unknown path does; its hosted page asks for no panel; its
// OpenAPI document lists no sandbox route; its banner says LIVE and names the testnet. Its checkout view says `live`
// (the sandbox's says `sandbox`) and offers only the networks NETWORKS takes. It refuses the sandbox's credentials,
// naming the sandbox (test/merchant/environments.test.ts tries every kind, both ways).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CheckoutView } from '../../src/contract/index.js';
import { HDKey } from '@scure/bip32';
import { loadConfig, SANDBOX_DEFAULTS } from '../../src/sandbox/config.js';
import { MerchantAccounts, receivingKeyOf } from '../../src/sandbox/services/merchant/merchant-accounts.js';
import { openApiDocument } from '../../src/sandbox/openapi/document.js';
import { routesOf } from '../../src/sandbox/routes/index.js';
import { sandboxRoutes } from '../../src/sandbox/routes/sandbox.js';
import { issueCredential } from '../../src/sandbox/services/merchant/credentials.js';
import { startTestChain, type TestChain } from '../helpers/anvil.js';

import { useTestGateway } from '../helpers/fixture.js';
import { liveEnv } from '../helpers/live.js';
import { checkoutApi } from '../helpers/checkout.js';
import { sampleLink } from '../helpers/gateway.js';

/** The live merchant's receiving key: the account of a wallet of its own. */
const EVM_XPUB = HDKey.fromMasterSeed(new Uint8Array(32).fill(3)).derive("m/44'/60'/0'").publicExtendedKey;

interface Started {
  url: string;
  banner: string;
  stop(): Promise<void>;
}

/** The gateway's own main in a process of its own, until its banner is printed whole. */
async function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = once(child, 'exit');
  child.stdout.setEncoding('utf8');
  while (!/^Keys this process holds:[\s\S]*\n\n/m.test(stdout)) {
    const chunk = await Promise.race([once(child.stdout, 'data'), exited.then(() => undefined)]);
    if (!chunk) throw new Error(`the live gateway exited (${child.exitCode}) before its banner:\n${stdout}${stderr}`);
    stdout += chunk[0];
  }
  child.stdout.resume();
  return {
    url: /on (http:\/\/\S+)/.exec(stdout)![1]!,
    banner: stdout,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Answer {
  status: number;
  type: string | null;
  cors: string | null;
  body: Record<string, unknown>;
}

async function ask(base: string, method: string, path: string): Promise<Answer> {
  const withBody = method === 'POST';
  const response = await fetch(new URL(path, base), {
    method,
    headers: { ...(withBody && { 'Content-Type': 'application/json' }), ...(method === 'OPTIONS' && { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' }) },
    body: withBody ? '{}' : undefined,
  });
  const text = await response.text();
  const type = response.headers.get('content-type');
  // What the sandbox serves there (its panel's script) reads as text, so that a failure says what came.
  const body = /json/.test(type ?? '') && text ? (JSON.parse(text) as Record<string, unknown>) : { text: text.slice(0, 40) };
  return { status: response.status, type, cors: response.headers.get('access-control-allow-origin'), body };
}

/** Every route the sandbox declares, its parameters filled, and the paths the issue names, and more under /sandbox. */
const SANDBOX_SURFACES: [method: string, path: string][] = [
  ...sandboxRoutes.routes.map(({ method, path }) => [method.toUpperCase(), path.replace(/\{\w+\}/g, 'x')] as [string, string]),
  ['POST', '/sandbox/addresses/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/expire-quote'],
  ['POST', '/sandbox/payment-links/pl_anything/expire'],
  ['GET', '/sandbox/wallet'],
  ['POST', '/sandbox/wallet/faucet'],
  ['POST', '/sandbox/chain/mine'],
  ['GET', '/sandbox/tester-panel.js'],
  ['GET', '/sandbox'],
  ['GET', '/sandbox/'],
  ['GET', '/sandbox/anything/else'],
  ['DELETE', '/sandbox/wallet'],
  // The sandbox's CORS preflight goes with its routes.
  ['OPTIONS', '/sandbox/wallet/transfers'],
];

describe('a live gateway', () => {
  let chain: TestChain;
  let folder: string;
  let env: Record<string, string>;
  let live: Started;
  before(async () => {
    chain = await startTestChain();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-live-'));
    env = await liveEnv(chain, folder);
    live = await startMain(env);
  });
  after(async () => {
    await live?.stop();
    await chain?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('answers every sandbox surface 404, exactly as an unknown path', async () => {
    const unknown = await ask(live.url, 'GET', '/no-such-path');
    assert.equal(unknown.status, 404);
    for (const [method, path] of SANDBOX_SURFACES) {
      const answer = await ask(live.url, method, path);
      const what = `${method} ${path}: ${JSON.stringify(answer)}`;
      assert.equal(answer.status, 404, what);
      assert.equal(answer.type, unknown.type, what);
      assert.equal(answer.cors, unknown.cors, what);
      assert.deepEqual(Object.keys(answer.body).sort(), Object.keys(unknown.body).sort(), what);
      assert.deepEqual({ ...answer.body, detail: undefined }, { ...unknown.body, detail: undefined }, what);
      assert.equal(answer.body.detail, `No route for ${method} ${path}.`, what);
    }
  });

  it('serves a hosted page that never loads the tester panel', async () => {
    const page = await (await fetch(new URL('/checkout?ref=pl_unknown', live.url))).text();
    assert.match(page, /<pay-checkout embedded="false">/);
    assert.doesNotMatch(page, /tester-panel\.js|<tester-panel/);
  });

  it('lists no sandbox route in its OpenAPI document, and every other route', async () => {
    const document = (await (await fetch(new URL('/openapi.json', live.url))).json()) as { paths: Record<string, Record<string, { tags: string[] }>>; tags: { name: string }[] };
    const sandbox = openApiDocument(routesOf('sandbox'), live.url) as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(document.paths), Object.keys(sandbox.paths).filter((path) => !path.startsWith('/sandbox')));
    assert.ok(Object.keys(sandbox.paths).some((path) => path.startsWith('/sandbox')), 'the sandbox document has its routes');
    assert.deepEqual(Object.values(document.paths).flatMap((operations) => Object.values(operations).flatMap((o) => o.tags)).filter((tag) => tag === 'Sandbox'), []);
    assert.ok(!document.tags.some((tag) => tag.name === 'Sandbox'));
  });

  it('says LIVE in its banner and names the testnet, with no sandbox credentials and no test wallet', () => {
    assert.match(live.banner, /^pay-checkout gateway on http:/m);
    assert.match(live.banner, /^LIVE \(GATEWAY_ENV=live\): payments on ETHEREUM, each watched on its node/m);
    assert.match(live.banner, /^Testnet: ETHEREUM \(Ethereum Sepolia\)/m);
    assert.match(live.banner, /^Rates: fixed, as RATE_SOURCES gives them \(desk\): the operator's choice/m);
    assert.match(live.banner, /^ {2}Addresses {6}ETHEREUM from each merchant's extended public keys \(npm run merchants -- set-xpub\): no private key here$/m);
    assert.match(live.banner, /^ {2}Payouts .*\(PAYOUT_HD_SEED\)/m);
    assert.doesNotMatch(live.banner, /Sandbox credentials|ClientId|Test wallet|sandbox_secret|public sandbox/);
    for (const secret of [env.GATEWAY_DATA_KEY!, env.PAYOUT_HD_SEED!]) assert.ok(!live.banner.includes(secret), 'a secret printed');
  });

  it("refuses the sandbox merchant's credentials, naming the sandbox, as Stripe answers a test key sent to live", async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DEFAULTS.clientId, client_secret: SANDBOX_DEFAULTS.clientSecret });
    const token = await fetch(new URL('/api/v2/oauth/token', live.url), { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    assert.equal(token.status, 401);
    assert.match(((await token.json()) as { error_description: string }).error_description, /^client_id is a sandbox credential \(it begins sandbox_\); this gateway is live/);
    const read = await fetch(new URL('/api/webhooks/endpoints', live.url), { headers: { Authorization: `Bearer ${issueCredential('sandbox', 'accessToken')}` } });
    assert.equal(read.status, 401);
    assert.match(((await read.json()) as { detail: string }).detail, /^The access token is a sandbox credential \(it begins test_\); this gateway is live/);
  });

  describe('its checkout view, beside the sandbox', () => {
    // In process, on the same configuration, with a merchant and its receiving key put in its database as the operator's command does.
    const liveGateway = useTestGateway(() => ({ config: loadConfig(env) }));
    const sandboxGateway = useTestGateway();

    it('carries environment live, offers only the networks taken, opens payments on the node, and refuses the sandbox field of a link', async () => {
      assert.equal(liveGateway.gateway.sandboxMerchant, undefined, 'no sandbox merchant in live');
      const { client, credentials } = await liveGateway.addMerchant('Live Merchant');
      const { db, clock, merchants } = liveGateway.gateway;
      await new MerchantAccounts(db, clock, merchants, 'live').setXpub(credentials.clientId, receivingKeyOf({ family: 'evm', xpub: EVM_XPUB, argument: '--evm' }, 'live'));
      await assert.rejects(client.createPaymentLink(sampleLink({ sandbox_quote_ttl_seconds: 60 })), (error: Error & { status?: number }) => {
        assert.equal(error.status, 422);
        assert.match(error.message, /sandbox_quote_ttl_seconds is a sandbox field: a live gateway refuses it/);
        return true;
      });
      const link = await client.createPaymentLink(sampleLink());
      const checkout = checkoutApi(liveGateway.url, link.payment_link_ref);
      const { status, body } = await checkout.view();
      assert.equal(status, 200);
      assert.equal(body.environment, 'live');
      assert.equal(body.sandbox, false);
      assert.deepEqual([...new Set(body.methods.flatMap((m) => m.assets.map((a) => a.network)))], ['ETHEREUM']);
      await liveGateway.gateway.watcher.follow('ETHEREUM');
      const opened = await checkout.open('ETH', 'ETHEREUM');
      assert.equal(opened.status, 201, JSON.stringify(opened.body));
      const page = await (await fetch(new URL(`/checkout?ref=${link.payment_link_ref}`, liveGateway.url))).text();
      assert.match(page, /"environment":"live"/);
      assert.doesNotMatch(page, /tester-panel\.js|<tester-panel/);
    });

    it('carries environment sandbox on the sandbox, whose hosted page loads the panel', async () => {
      const link = await sandboxGateway.client.createPaymentLink(sampleLink());
      const { body } = await checkoutApi(sandboxGateway.url, link.payment_link_ref).view();
      assert.deepEqual([body.environment, body.sandbox], ['sandbox', true] satisfies [CheckoutView['environment'], boolean]);
      const page = await (await fetch(new URL(`/checkout?ref=${link.payment_link_ref}`, sandboxGateway.url))).text();
      assert.match(page, /<script type="module" src="\/sandbox\/tester-panel.js"><\/script>/);
    });
  });
});
