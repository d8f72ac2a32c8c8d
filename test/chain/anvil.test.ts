// A private anvil node: the committed contracts deployed to it, tokens minted and moved, ETH paid through a contract's
// internal call, and the chain kept across a restart on the same port. Every node started here is gone at the end.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestClient, createWalletClient, getAddress, http, parseEther, parseEventLogs, publicActions, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { startAnvil, type AnvilNode } from '../../src/sandbox/chains/evm/anvil.js';
import { Forwarder, TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract, receiptOf } from '../../src/sandbox/chains/evm/contracts/deploy.js';

const dir = mkdtempSync(join(tmpdir(), 'pay-checkout-anvil-'));
const statePath = join(dir, 'state.json');
const started: AnvilNode[] = [];
let node: AnvilNode;
let alice: Address;
let bob: Address;
let token: Address;

async function start(port?: number): Promise<AnvilNode> {
  const fresh = await startAnvil({ mining: 'manual', statePath, port });
  started.push(fresh);
  return fresh;
}

const chain = () => createTestClient({ mode: 'anvil', transport: http(node.rpcUrl) }).extend(publicActions);
// The node's chain id is Sepolia's, so viem's Sepolia definition fits it.
const wallet = (account: Address) => createWalletClient({ account, chain: sepolia, transport: http(node.rpcUrl) });
const balanceOf = (owner: Address) => chain().readContract({ address: token, abi: TestToken.abi, functionName: 'balanceOf', args: [owner] });

describe('a private anvil node', () => {
  before(async () => {
    node = await start();
    [alice, bob] = (await createWalletClient({ transport: http(node.rpcUrl) }).getAddresses()) as [Address, Address];
  });

  after(async () => {
    await Promise.all(started.map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
    // No stray `anvil --port` process: every node has exited and been reaped.
    for (const { pid } of started) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
  });

  it('listens on a free port with the Sepolia-like chain id, mining only on demand', async () => {
    assert.equal(node.rpcUrl, `http://127.0.0.1:${node.port}`);
    assert.equal(await chain().getChainId(), 11155111);
    const height = await chain().getBlockNumber();
    const hash = await wallet(alice).sendTransaction({ to: bob, value: 1n });
    assert.equal(await chain().getBlockNumber(), height, 'no block without anvil_mine');
    await receiptOf(node.rpcUrl, hash, { mine: true });
    assert.equal(await chain().getBlockNumber(), height + 1n);
  });

  it('deploys TestToken with 6 decimals; anyone mints, holders transfer, spenders spend what they were allowed', async () => {
    token = await deployContract(node.rpcUrl, alice, TestToken, ['Tether USD (sandbox)', 'USDT', 6], { mine: true });
    const read = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') => chain().readContract({ address: token, abi: TestToken.abi, functionName });
    assert.deepEqual([await read('name'), await read('symbol'), await read('decimals')], ['Tether USD (sandbox)', 'USDT', 6]);

    const call = async (from: Address, functionName: 'mint' | 'transfer' | 'approve', args: readonly [Address, bigint]) =>
      receiptOf(node.rpcUrl, await wallet(from).writeContract({ address: token, abi: TestToken.abi, functionName, args }), { mine: true });
    await call(bob, 'mint', [alice, 100_000_000n]);
    const receipt = await call(alice, 'transfer', [bob, 12_500_000n]);
    const [transfer] = parseEventLogs({ abi: TestToken.abi, eventName: 'Transfer', logs: receipt.logs });
    assert.deepEqual(transfer?.args, { from: getAddress(alice), to: getAddress(bob), value: 12_500_000n });
    assert.deepEqual([await balanceOf(alice), await balanceOf(bob), await read('totalSupply')], [87_500_000n, 12_500_000n, 100_000_000n]);

    await call(alice, 'approve', [bob, 1_000_000n]);
    const spend = (amount: bigint) =>
      wallet(bob).writeContract({ address: token, abi: TestToken.abi, functionName: 'transferFrom', args: [alice, bob, amount] });
    await receiptOf(node.rpcUrl, await spend(600_000n), { mine: true });
    await assert.rejects(
      async () => receiptOf(node.rpcUrl, await spend(600_000n), { mine: true }),
      /transaction 0x[0-9a-f]+ reverted/,
      'more than the allowance left',
    );
    assert.equal(await balanceOf(bob), 13_100_000n);
  });

  it('pays a fresh address through the Forwarder: its balance shows the ETH, the transaction names the contract', async () => {
    const forwarder = await deployContract(node.rpcUrl, alice, Forwarder, [], { mine: true });
    const payee = privateKeyToAddress(generatePrivateKey());
    const value = parseEther('0.25');
    const hash = await wallet(alice).writeContract({ address: forwarder, abi: Forwarder.abi, functionName: 'forward', args: [payee], value });
    await receiptOf(node.rpcUrl, hash, { mine: true });
    assert.equal(await chain().getBalance({ address: payee }), value);
    assert.equal(await chain().getBalance({ address: forwarder }), 0n);
    const { to } = await chain().getTransaction({ hash });
    assert.equal(to && getAddress(to), getAddress(forwarder));
  });

  it('restarted on the same port with its state file, keeps its height, block hashes and balances', async () => {
    await chain().mine({ blocks: 5 });
    const height = await chain().getBlockNumber();
    const tip = await chain().getBlock({ blockNumber: height });
    const balance = await balanceOf(bob);
    const { rpcUrl, port } = node;
    await node.stop();
    assert.equal(await node.exited, 0);

    node = await start(port);
    assert.equal(node.rpcUrl, rpcUrl);
    assert.equal(await chain().getBlockNumber(), height);
    assert.equal((await chain().getBlock({ blockNumber: height })).hash, tip.hash);
    assert.equal(await balanceOf(bob), balance);
  });

  it('fails with anvil’s own words when the port is taken', async () => {
    await assert.rejects(startAnvil({ port: node.port }), /exited \(1\) before it listened:[^]*Address already in use/);
  });
});
