// The operator's merchants command as an operator runs it (`npm run merchants -- …`: src/sandbox/merchants-main.ts in a
// process of its own) on a PGlite folder, and gateways started on that folder after it. `--json` prints one line and
// nothing else; bad arguments exit 2 naming the argument; an unknown client_id exits 1 saying so; a folder a running
// gateway holds is refused. Two merchants added with their own xpubs (made here from random seeds with ethers, a BIP32
// implementation other than the gateway's): a live gateway on anvil opens each one's payments exactly at the addresses
// ethers derives from its own key, never the other's, at indexes 0, 1, 2 … of its own with none used twice, over random
// interleavings of opens (fast-check), and watches them all; a merchant without a key is offered no coin in live; a
// sandbox gateway on the same folder derives their TRON addresses from their TRON keys and goes on from their EVM index.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { decodeBase58, getBytes, HDNodeWallet, parseEther, sha256 } from 'ethers';
import fc from 'fast-check';
import type { Payment } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { startTestChain, type TestChain } from '../helpers/anvil.js';
import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { sampleLink } from '../helpers/gateway.js';
import { liveEnv } from '../helpers/live.js';
import { runMerchants, type CommandRun } from '../helpers/merchants-command.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';

/** `npm run merchants -- …args` with `env`, to its exit. */
const merchants = (args: string[], env: Record<string, string>) => runMerchants(args, { ...process.env, ...env });

/** The one JSON line `--json` prints, and nothing else on stdout. */
function jsonOf<T>(run: CommandRun): T {
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^[^\n]+\n$/, `one line: ${run.stdout}`);
  return JSON.parse(run.stdout) as T;
}

/** A merchant's own wallet: its seed stays here; the gateway gets its accounts' extended public keys. */
function wallet() {
  const root = HDNodeWallet.fromSeed(randomBytes(32));
  return { evm: root.derivePath("m/44'/60'/0'").neuter().extendedKey, tron: root.derivePath("m/44'/195'/0'").neuter().extendedKey };
}

/** The receive addresses of an account key, 0/0 … 0/(count-1), as ethers derives them (0x form). */
function derived(xpub: string, count: number): string[] {
  const receive = HDNodeWallet.fromExtendedKey(xpub).deriveChild(0);
  return Array.from({ length: count }, (_, index) => receive.deriveChild(index).address);
}

/** A TRON address's 21 bytes, 0x41 and the account's 20, its base58check checksum verified here. */
function tronBytes(address: string): string {
  const bytes = getBytes(`0x${decodeBase58(address).toString(16).padStart(50, '0')}`);
  const checksum = getBytes(sha256(sha256(bytes.slice(0, 21)))).slice(0, 4);
  assert.deepEqual([...bytes.slice(21)], [...checksum], `${address}: checksum`);
  return Buffer.from(bytes.slice(0, 21)).toString('hex');
}

interface Added {
  merchant_id: string;
  client_id: string;
  client_secret: string;
  merchant_key: string;
}

describe('the merchants command, on a PGlite folder', () => {
  let folder: string;
  let store: Record<string, string>;
  const walletA = wallet();
  const walletB = wallet();
  let a: Added;
  let b: Added;
  let c: Added;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-merchants-'));
    // The operator's live database: what the command adds there is live (its credentials begin live_).
    store = { PGLITE_DIR: join(folder, 'pglite'), GATEWAY_ENV: 'live', GATEWAY_DATA_KEY: '5d2e8a1f7c3b9e4d6a0f8c2b5e7d1a3f9c4b6e8d0a2f5c7b3e9d1a4f6c8b0e2d', LOG_LEVEL: 'warn' };
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('makes and migrates a new folder, then adds merchants, printing each one line of JSON with its credentials', async () => {
    assert.deepEqual(jsonOf(await merchants(['list', '--json'], store)), []);
    // One after another: each run holds the folder while it works.
    a = jsonOf(await merchants(['add', '--name', 'Shop A', '--xpub-evm', walletA.evm, '--xpub-tron', walletA.tron, '--json'], store));
    b = jsonOf(await merchants(['add', '--name', 'Shop B', '--xpub-evm', walletB.evm, '--xpub-tron', walletB.tron, '--json'], store));
    c = jsonOf(await merchants(['add', '--name', 'Shop C', '--json'], store));
    for (const added of [a, b, c]) {
      assert.deepEqual(Object.keys(added), ['merchant_id', 'client_id', 'client_secret', 'merchant_key']);
      for (const value of Object.values(added)) assert.match(value, /^[\w-]{16,}$/, 'random and URL-safe');
      for (const credential of [added.client_id, added.client_secret, added.merchant_key]) assert.match(credential, /^live_/, 'named by its environment');
    }
    assert.equal(new Set([a, b, c].flatMap((m) => Object.values(m))).size, 12);
    const listed = jsonOf<{ client_id: string; name: string; xpubs: Record<string, string> }[]>(await merchants(['list', '--json'], store));
    assert.deepEqual(
      listed.map((m) => [m.name, m.xpubs]).sort(),
      [['Shop A', walletA], ['Shop B', walletB], ['Shop C', {}]].sort(),
    );
    for (const secret of [a, b, c].flatMap((m) => [m.client_secret, m.merchant_key])) assert.ok(!JSON.stringify(listed).includes(secret), 'a secret listed');
  });

  it('refuses bad arguments with exit 2 naming the argument, and an unknown client_id or another merchant\'s key with exit 1', async () => {
    const cases: [string[], number, RegExp][] = [
      [[], 2, /a command is required/],
      [['remove', 'x'], 2, /remove is not a command/],
      [['add', '--json'], 2, /add: --name <name> is required/],
      [['add', '--name', 'X', '--xpub-doge', 'x'], 2, /Unknown option '--xpub-doge'/],
      [['add', '--name', 'X', '--xpub-evm', HDNodeWallet.fromSeed(randomBytes(32)).derivePath("m/44'/60'/0'").extendedKey], 2, /--xpub-evm is a private key/],
      [['add', '--name', 'X', '--xpub-tron', 'hello'], 2, /--xpub-tron must be an extended public key/],
      [['disable'], 2, /disable takes one <client_id>/],
      [['set-xpub', a.client_id, '--evm', walletA.evm, '--tron', walletA.tron], 2, /exactly one of --evm, --tron or --bitcoin/],
      [['roll-secret', 'client_nobody', '--json'], 1, /There is no merchant with client_id client_nobody/],
      [['set-xpub', c.client_id, '--evm', walletA.evm], 1, /--evm is another merchant's receiving key/],
      [['add', '--name', 'Shop D', '--xpub-evm', walletB.evm], 1, /--xpub-evm is another merchant's receiving key/],
    ];
    // Arguments are refused before the folder is opened, so those run side by side; the others hold it in turn.
    const runs = await Promise.all(cases.filter(([, code]) => code === 2).map(([args]) => merchants(args, store)));
    for (const [args] of cases.filter(([, code]) => code === 1)) runs.push(await merchants(args, store));
    for (const [i, [args, code, message]] of cases.entries()) {
      assert.equal(runs[i]!.code, code, `${args.join(' ')}: ${runs[i]!.stderr}`);
      assert.match(runs[i]!.stderr, message, args.join(' '));
      assert.equal(runs[i]!.stdout, '', `${args.join(' ')} printed on stdout`);
    }
    // Refused whole: Shop D, whose key was another's, was not added either.
    assert.equal(jsonOf<unknown[]>(await merchants(['list', '--json'], store)).length, 3);
  });

  it("checks its variables as the gateway's start does: a misspelled one refuses it in live, naming the nearest, and is a warning in the sandbox", async () => {
    // DATABSE_URL beside PGLITE_DIR: the merchant would go to the folder, not to the PostgreSQL meant.
    const misspelled = { DATABSE_URL: 'postgres://u@127.0.0.1:9/db', GATEWAY_DATA_KY: 'x' };
    const refused = await merchants(['add', '--name', 'Shop E', '--json'], { ...store, ...misspelled });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stdout, '');
    assert.deepEqual(
      refused.stderr.trim().split('\n').map((line) => /^merchants: (\w+) is not a variable the gateway reads \(the nearest it reads: (\w+)\)/.exec(line)?.slice(1)),
      [['DATABSE_URL', 'DATABASE_URL'], ['GATEWAY_DATA_KY', 'GATEWAY_DATA_KEY']],
    );
    assert.equal(jsonOf<unknown[]>(await merchants(['list', '--json'], store)).length, 3, 'Shop E added');
    const warned = await merchants(['list', '--json'], { PGLITE_DIR: join(folder, 'sandbox'), LOG_LEVEL: 'warn', ...misspelled });
    assert.deepEqual(jsonOf(warned), []);
    assert.deepEqual(
      warned.stderr.trim().split('\n').map((line) => /^merchants: warning: (\w+) is not a variable the gateway reads \(the nearest it reads: (\w+)\)/.exec(line)?.slice(1)),
      [['DATABSE_URL', 'DATABASE_URL'], ['GATEWAY_DATA_KY', 'GATEWAY_DATA_KEY']],
    );
  });

  /** Each merchant's payments opened by the live gateway, by client_id. */
  const opened = new Map<string, (Payment & { ref: string })[]>();
  /** A link of each merchant made by the live gateway, left for the sandbox gateway to open: it refuses live credentials. */
  const spare = new Map<string, string>();
  const clientOf = (gateway: GatewayProcess, m: Added) =>
    new MerchantClient({ baseUrl: gateway.url, clientId: m.client_id, clientSecret: m.client_secret, merchantKey: m.merchant_key });
  async function openAt(gateway: GatewayProcess, ref: string, asset: 'ETH' | 'USDT', network: 'ETHEREUM' | 'TRON'): Promise<Payment & { ref: string }> {
    const answer = await checkoutApi(gateway.url, ref).open(asset, network);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return { ...answer.body, ref };
  }
  async function open(gateway: GatewayProcess, m: Added, asset: 'ETH' | 'USDT', network: 'ETHEREUM' | 'TRON'): Promise<Payment & { ref: string }> {
    return openAt(gateway, (await clientOf(gateway, m).createPaymentLink(sampleLink())).payment_link_ref, asset, network);
  }

  describe('a live gateway on that folder', () => {
    let chain: TestChain;
    let live: GatewayProcess;
    let env: Record<string, string>;
    async function openEth(m: Added): Promise<void> {
      const payment = await open(live, m, 'ETH', 'ETHEREUM');
      opened.set(m.client_id, [...(opened.get(m.client_id) ?? []), payment]);
    }
    before(async () => {
      chain = await startTestChain();
      env = { ...(await liveEnv(chain, folder)), ...store, ETHEREUM_CONFIRMATIONS: '1', LIMIT_OPENS_PER_CLIENT_PER_MINUTE: '10000' };
      live = await startGatewayProcess(env);
      // Opens wait for the gateway to have seen the node (a 503 until then): a view says when its coin is available.
      const link = await clientOf(live, a).createPaymentLink(sampleLink());
      const deadline = Date.now() + 60_000;
      while (!(await checkoutApi(live.url, link.payment_link_ref).view()).body.methods[0]!.assets.some((asset) => asset.available)) {
        assert.ok(Date.now() < deadline, 'ETHEREUM never available');
        await delay(100); // between asks, not in place of the answer
      }
    });
    after(async () => {
      await live?.stop();
      await chain?.stop();
    });

    it('is refused the folder by the command while it runs, naming the process', async () => {
      const run = await merchants(['list', '--json'], store);
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`The PGlite folder .* is in use by process ${live.pid}: one folder belongs to one gateway`));
      assert.equal(run.stdout, '');
    });

    it("opens each merchant's payments at its own key's addresses, as ethers derives them, at indexes never used twice", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }), async (batches) => {
          // Each batch opened at once: the two merchants' opens interleave in the gateway.
          for (const batch of batches) await Promise.all(batch.map((which) => openEth(which === 'a' ? a : b)));
        }),
        { numRuns: 6 },
      );
      for (const [m, own, other] of [[a, walletA, walletB], [b, walletB, walletA]] as const) {
        const addresses = opened.get(m.client_id)!.map((p) => p.address);
        // Index n for the n-th payment, none skipped, none twice: exactly the first addresses of its own key.
        assert.deepEqual([...addresses].sort(), derived(own.evm, addresses.length).sort(), m.client_id);
        const others = new Set(derived(other.evm, 100));
        assert.ok(!addresses.some((address) => others.has(address)), `${m.client_id} at the other's address`);
      }
    });

    it('watches every merchant\'s addresses: a payment to the second merchant is followed to paid', async () => {
      const payment = opened.get(b.client_id)!.at(-1)!;
      const events = followEvents(live.url, payment.ref);
      try {
        await chain.client.sendTransaction({ account: chain.customer, chain: null, to: payment.address as `0x${string}`, value: parseEther(payment.amount_crypto) });
        await chain.client.mine({ blocks: 1 });
        await events.next((p) => p.payment_id === payment.payment_id && p.status === 'paid', 60_000);
      } finally {
        events.close();
      }
    });

    it('makes a link of each merchant for the sandbox gateway below (one link per order: a coin each)', async () => {
      for (const m of [a, b, c]) for (const asset of ['USDT', 'ETH']) spare.set(`${m.client_id} ${asset}`, (await clientOf(live, m).createPaymentLink(sampleLink())).payment_link_ref);
    });

    it('offers a merchant without a receiving key no coin, and refuses to open one naming the network', async () => {
      const link = await clientOf(live, c).createPaymentLink(sampleLink());
      const checkout = checkoutApi(live.url, link.payment_link_ref);
      assert.deepEqual((await checkout.view()).body.methods.flatMap((m) => m.assets), []);
      const refused = await checkout.open('ETH', 'ETHEREUM');
      assert.equal(refused.status, 422);
      assert.match(JSON.stringify(refused.body), /This merchant takes no payments on ETHEREUM: it has no receiving key for it/);
      assert.match(JSON.stringify(refused.body), /"path":"network"/);
    });
  });

  describe('a sandbox gateway on that folder, after the live one', () => {
    let sandbox: GatewayProcess;
    before(async () => {
      sandbox = await startGatewayProcess({ ...store, GATEWAY_ENV: 'sandbox', SANDBOX_BLOCK_INTERVAL_MS: '0' });
    });
    after(() => sandbox?.stop());

    it("derives each merchant's TRON addresses from its TRON key (0x41 and the 20 bytes ethers derives)", async () => {
      for (const [m, own] of [[a, walletA], [b, walletB]] as const) {
        const payment = await openAt(sandbox, spare.get(`${m.client_id} USDT`)!, 'USDT', 'TRON');
        assert.equal(tronBytes(payment.address), `41${derived(own.tron, 1)[0]!.slice(2).toLowerCase()}`, m.client_id);
      }
    });

    it('goes on from where the live gateway left each EVM index, and gives a merchant without keys the sandbox seed', async () => {
      const used = opened.get(a.client_id)!.length;
      assert.equal((await openAt(sandbox, spare.get(`${a.client_id} ETH`)!, 'ETH', 'ETHEREUM')).address, derived(walletA.evm, used + 1)[used]);
      const keyless = (await openAt(sandbox, spare.get(`${c.client_id} ETH`)!, 'ETH', 'ETHEREUM')).address;
      assert.ok(![...derived(walletA.evm, 100), ...derived(walletB.evm, 100)].includes(keyless), keyless);
    });
  });

  it('rolls a secret, gives a receiving key and disables a merchant once the folder is free, each answered in one line', async () => {
    const rolled = jsonOf<{ client_id: string; client_secret: string }>(await merchants(['roll-secret', a.client_id, '--json'], store));
    assert.equal(rolled.client_id, a.client_id);
    assert.notEqual(rolled.client_secret, a.client_secret);
    const evm = wallet().evm;
    const given = jsonOf<{ client_id: string; xpubs: Record<string, string> }>(await merchants(['set-xpub', c.client_id, '--evm', evm, '--json'], store));
    assert.deepEqual([given.client_id, given.xpubs], [c.client_id, { evm }]);
    const disabled = jsonOf<{ client_id: string; disabled_at: string | null }>(await merchants(['disable', b.client_id, '--json'], store));
    assert.equal(disabled.client_id, b.client_id);
    assert.ok(disabled.disabled_at && !Number.isNaN(Date.parse(disabled.disabled_at)), String(disabled.disabled_at));
  });
});
