// A restore with Ethereum on a node (anvil): past the margin, the gateway asks the chain which addresses were used (as
// HD wallets and NBXplorer scan) and moves past the last one, stopping after 20 unused in a row (docs/operations.md,
// "Back up and restore"). Used here: an address that holds ETH, one that holds the test token, one that only sent (its
// nonce), each beyond the margin, and one beyond a gap of 20, which the scan never reaches. A plain restart asks the
// node nothing; a node that does not answer ends the scan within its bound, in the log line, and the margin stands.
// Then the scan alone, on fixed answers: a merchant account's addresses from its own key on its family's networks, the
// bound of indexes, and a node that stops answering mid-way (what it answered stands).
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { createWalletClient, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEFAULT_SANDBOX_SEED_HEX, deriveAddress, deriveKey, receivingKey } from '../../src/codecs/addresses.js';
import { EvmNodeChain } from '../../src/sandbox/chains/evm/node-chain.js';
import { TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import type { ChainPort } from '../../src/sandbox/chains/port.js';
import { log } from '../../src/sandbox/logging.js';
import { AddressScan } from '../../src/sandbox/services/merchant/address-scan.js';
import { ethereumOn, startTestChain, type TestChain } from '../helpers/anvil.js';
import { sampleLink, startTestGateway, type TestGateway } from '../helpers/gateway.js';

/** Opens a USDT/TRON payment (simulated): its index, from the global counter every family shares. */
async function handOut(gateway: TestGateway): Promise<number> {
  const link = await gateway.client.createPaymentLink(sampleLink());
  const { payment } = await gateway.gateway.customerCheckout.open(link.payment_link_ref, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
  const [row] = await gateway.gateway.db.query<{ address_index: string }>('SELECT address_index::text FROM payments WHERE payment_id = $1', [payment.payment_id]);
  return Number(row!.address_index);
}

interface RestoreLine {
  event?: string;
  moved: { counter: string; from: number; to: number }[];
  scan?: { networks: string[]; moved: { counter: string; from: number; to: number }[]; addresses_asked: number; unfinished?: string };
}

describe('a restore with Ethereum on a node', () => {
  let chain: TestChain;
  let folder: string;
  const margin = 5;
  // The sandbox merchant's EVM addresses at the global index: the sandbox seed's (no HD_XPUB_EVM here).
  const root = receivingKey(DEFAULT_SANDBOX_SEED_HEX, {});
  const evmAt = (index: number) => deriveAddress(root, 'evm', index) as Address;
  before(async () => {
    chain = await startTestChain();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-scan-'));
  });
  after(async () => {
    await chain?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const dataDir = () => join(folder, 'pglite');
  let starts = 0;
  const start = (env: Record<string, string> = {}) =>
    startTestGateway({ config: { dataDir: dataDir(), addresses: { restoreMargin: margin }, networks: ethereumOn(chain, env) }, newFolder: starts++ === 0 });
  const restore = async () => {
    await rm(dataDir(), { recursive: true });
    await cp(join(folder, 'backup'), dataDir(), { recursive: true });
  };
  /** Starts with log.warn watched: the gateway, and its one address_restore line, if any. */
  async function startWatched(env: Record<string, string> = {}): Promise<{ gateway: TestGateway; line: RestoreLine | undefined; ms: number }> {
    const warn = mock.method(log, 'warn', () => undefined);
    const started = Date.now();
    try {
      const gateway = await start(env);
      const lines = warn.mock.calls.map((call) => call.arguments[0] as RestoreLine).filter((fields) => fields?.event === 'address_restore');
      assert.ok(lines.length <= 1, JSON.stringify(lines));
      return { gateway, line: lines[0], ms: Date.now() - started };
    } finally {
      warn.mock.restore();
    }
  }

  it('skips every address past the margin that the chain shows used, up to a gap of 20 unused; a plain restart asks nothing', async () => {
    let gateway = await start();
    assert.deepEqual([await handOut(gateway), await handOut(gateway)], [0, 1]);
    await gateway.close();
    await cp(dataDir(), join(folder, 'backup'), { recursive: true });
    gateway = await start();
    assert.deepEqual([await handOut(gateway), await handOut(gateway), await handOut(gateway)], [2, 3, 4]);
    await gateway.close();
    await restore();

    // The restored database gives 2; the marks reserved the block from 2 to 22; the margin moves the counter to 27.
    const moved = 22 + margin;
    await chain.client.sendTransaction({ account: chain.customer, chain: null, to: evmAt(moved + 3), value: 1n });
    await chain.client.writeContract({ account: chain.customer, chain: null, address: chain.token, abi: TestToken.abi, functionName: 'transfer', args: [evmAt(moved + 9), 1n] });
    // Only sent: funded for its gas, a transaction out, then nothing left.
    const sender = privateKeyToAccount(`0x${bytesToHex(deriveKey(root, 'evm', moved + 15).privateKey!)}`);
    assert.equal(sender.address, evmAt(moved + 15));
    await chain.client.setBalance({ address: sender.address, value: 10n ** 18n });
    await createWalletClient({ account: sender, transport: http(chain.rpcUrl) }).sendTransaction({ chain: null, to: chain.customer, value: 0n });
    await chain.client.mine({ blocks: 1 });
    await chain.client.setBalance({ address: sender.address, value: 0n });
    assert.equal(await chain.client.getBalance({ address: sender.address }), 0n);
    // Past 20 unused after the last used (moved + 15): never asked.
    await chain.client.sendTransaction({ account: chain.customer, chain: null, to: evmAt(moved + 15 + 21), value: 1n });
    await chain.client.mine({ blocks: 1 });

    const restored = await startWatched();
    try {
      assert.ok(restored.line, 'a restore is said');
      assert.deepEqual(restored.line.scan?.networks, ['ETHEREUM']);
      assert.equal(restored.line.scan?.unfinished, undefined);
      assert.deepEqual(restored.line.scan?.moved, [{ counter: 'global', from: moved, to: moved + 16 }]);
      assert.deepEqual(restored.line.moved.find((m) => m.counter === 'global'), { counter: 'global', from: 2, to: moved + 16 });
      // The 16 before the last used, then 20 unused (one address an index: the sandbox merchant's key is the seed's).
      assert.equal(restored.line.scan?.addresses_asked, 16 + 20);
      assert.equal(await handOut(restored.gateway), moved + 16, 'past the last address the chain shows used');
    } finally {
      await restored.gateway.close();
    }

    const asked = mock.method(EvmNodeChain.prototype, 'addressUsed');
    try {
      const plain = await startWatched();
      try {
        assert.equal(plain.line, undefined, 'a plain restart finds no restore');
        assert.equal(await handOut(plain.gateway), moved + 17, 'and goes on from the next index');
      } finally {
        await plain.gateway.close();
      }
      assert.equal(asked.mock.callCount(), 0, 'a plain restart asks the node nothing');
    } finally {
      asked.mock.restore();
    }
  });

  it('starts within its bound when the node does not answer, saying so, with the margin alone', async () => {
    // Accepts connections and never answers.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await restore();
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const restored = await startWatched({ ETHEREUM_RPC_URL: url, ETHEREUM_USDT_DECIMALS: '6', ETHEREUM_TIMEOUT_MS: '1000' });
      try {
        assert.ok(restored.line, 'a restore is said');
        assert.match(restored.line.scan?.unfinished ?? '', /./, 'the scan says it did not finish');
        assert.deepEqual(restored.line.scan?.moved, []);
        // The last run reserved the block from its index (44) to 64: the margin alone past it.
        assert.deepEqual(restored.line.moved.find((m) => m.counter === 'global'), { counter: 'global', from: 2, to: 64 + margin });
        assert.equal(await handOut(restored.gateway), 64 + margin);
      } finally {
        await restored.gateway.close();
      }
      assert.ok(restored.ms < 20_000, `started in ${restored.ms} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('the chain scan of a merchant account', () => {
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  const account = receivingKey(undefined, { evm: xpub });
  /** A node's port that knows which addresses were used, and counts what it is asked. */
  function node(family: 'evm' | 'tron', used: number[]) {
    const addresses = new Set(used.map((index) => deriveAddress(account, 'evm', index)));
    const asked: string[] = [];
    const port = {
      network: { id: family === 'evm' ? 'ETHEREUM' : 'TRON', family },
      head: async () => ({ height: 1, hash: '0x', time: new Date() }),
      addressUsed: async (address: string) => (asked.push(address), addresses.has(address)),
    } as unknown as ChainPort;
    return { port, asked };
  }
  const counter = (next: number) => ({ counter: 'evm:k1', next, account: { family: 'evm' as const, xpub } });

  it("asks the account's own addresses on the networks of its family only, and moves past the last used", async () => {
    const evm = node('evm', [3, 12, 40]);
    const tron = node('tron', []);
    const outcome = await new AddressScan([evm.port, tron.port], []).scan([counter(0), { counter: 'global', next: 7 }]);
    // 40 is 28 past 12: beyond the gap, never asked. The global counter has no keys here (live): nothing asked for it.
    assert.deepEqual(outcome.moved, [{ counter: 'evm:k1', from: 0, to: 13 }]);
    assert.deepEqual(evm.asked, Array.from({ length: 33 }, (_, index) => deriveAddress(account, 'evm', index)));
    assert.deepEqual(tron.asked, []);
    assert.equal(outcome.addresses_asked, 33);
  });

  it('asks at most its bound of indexes a counter, and keeps what it found when a node stops answering', async () => {
    const busy = node('evm', Array.from({ length: 100 }, (_, index) => index));
    const bounded = await new AddressScan([busy.port], [], { gap: 20, mostIndexes: 50, deadlineMs: 5_000 }).scan([counter(0)]);
    assert.deepEqual(bounded.moved, [{ counter: 'evm:k1', from: 0, to: 50 }]);
    assert.equal(busy.asked.length, 50);
    const failing = node('evm', [2]);
    const ask = failing.port.addressUsed!.bind(failing.port);
    failing.port.addressUsed = async (address) => (failing.asked.length >= 20 ? Promise.reject(new Error('the node went away')) : ask(address));
    const cut = await new AddressScan([failing.port], []).scan([counter(0)]);
    assert.equal(cut.unfinished, 'the node went away');
    // The first window answered (2 used); the second did not.
    assert.deepEqual(cut.moved, [{ counter: 'evm:k1', from: 0, to: 3 }]);
  });
});
