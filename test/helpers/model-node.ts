// Ethereum's node in the anvil pass of the model test (test/helpers/payment-model.ts): a private anvil that mines only
// when told, keeps its chain in a state file across restarts, and is reorganised, rewound and restarted by the test.
// What it shows is the truth the gateway's counts are checked against.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestClient, encodeFunctionData, http, publicActions, type Address, type Hash, type Hex } from 'viem';
import { startAnvil, type AnvilNode } from '../../src/sandbox/chains/evm/anvil.js';
import { TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';

export class ModelNode {
  #node: AnvilNode;
  /**
   * The lowest block a reorganisation may take back: above the token's contract, and above a restart (a restarted
   * anvil keeps its blocks but not the states behind them, so it can only reorganise what it mined since).
   */
  #floor = 0;

  private constructor(
    node: AnvilNode,
    private readonly folder: string,
    readonly token: Address,
    /** Where a double-spend sends the coins instead. */
    private readonly elsewhere: Address,
  ) {
    this.#node = node;
  }

  static async start(): Promise<ModelNode> {
    const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-model-node-'));
    const node = await startAnvil({ mining: 'manual', statePath: join(folder, 'state.json') });
    const [deployer, elsewhere] = (await createTestClient({ mode: 'anvil', transport: http(node.rpcUrl) }).extend(publicActions).request({ method: 'eth_accounts' } as never)) as [
      Address,
      Address,
    ];
    const token = await deployContract(node.rpcUrl, deployer, TestToken, ['Tether USD (test)', 'USDT', 6], { mine: true });
    const model = new ModelNode(node, folder, token, elsewhere);
    model.#floor = await model.height();
    return model;
  }

  /**
   * Makes sure the last `depth` blocks may be taken back (mining what is missing above the floor, with whatever waits
   * for a block in them), so that every reorganisation the test asks for happens.
   */
  async reorganisable(depth: number): Promise<void> {
    const missing = depth - ((await this.height()) - this.#floor);
    if (missing > 0) await this.#client.mine({ blocks: missing });
  }

  /** What the gateway processes are configured with: Ethereum (ETH and the token) on this node, followed fast. */
  get env(): Record<string, string> {
    return { ETHEREUM_RPC_URL: this.#node.rpcUrl, ETHEREUM_USDT_CONTRACT: this.token, ETHEREUM_POLL_MS: '150', ETHEREUM_TIMEOUT_MS: '1000' };
  }

  get #client() {
    return createTestClient({ mode: 'anvil', transport: http(this.#node.rpcUrl, { retryCount: 2 }), cacheTime: 0 }).extend(publicActions);
  }

  async height(): Promise<number> {
    return Number(await this.#client.getBlockNumber());
  }

  /** The hash of the node's newest block. */
  async tipHash(): Promise<string> {
    return (await this.#client.getBlock({ blockTag: 'latest' })).hash;
  }

  /**
   * Replaces the last `depth` blocks. With `doubleSpend`, the first transaction of the orphaned blocks is spent again
   * in the new ones, by the same sender with the same nonce, to another address. Returns whether one was.
   */
  async reorg(depth: number, doubleSpend: boolean): Promise<boolean> {
    const client = this.#client;
    const tip = await client.getBlockNumber();
    let replacements: [Record<string, string | undefined>, number][] = [];
    if (doubleSpend) {
      const orphaned = await Promise.all(Array.from({ length: depth }, (_, i) => client.getBlock({ blockNumber: tip - BigInt(i), includeTransactions: true })));
      const spent = orphaned.flatMap((b) => b.transactions).find((t) => t.to && (t.value > 0n || t.to.toLowerCase() === this.token.toLowerCase()));
      if (spent) {
        // The sender's key is the gateway's test wallet's: the node signs for it while it is impersonated.
        await client.request({ method: 'anvil_impersonateAccount', params: [spent.from] } as never);
        const instead =
          spent.value > 0n
            ? { to: this.elsewhere, value: hex(spent.value) }
            : { to: spent.to!, data: redirectTransfer(spent.input, this.elsewhere) };
        replacements = [[{ from: spent.from, nonce: hex(BigInt(spent.nonce)), gas: hex(100_000n), ...instead }, 0]];
      }
    }
    await client.request({ method: 'anvil_reorg', params: [depth, replacements] } as never);
    return replacements.length > 0;
  }

  /** The last `depth` blocks leave the chain and none replace them. */
  async rewind(depth: number): Promise<void> {
    await this.#client.request({ method: 'anvil_rollback', params: [depth] } as never);
  }

  /** Stops the node (it writes its chain) and starts it again on the same port from that chain. */
  async restart(): Promise<void> {
    const { port } = this.#node;
    await this.#node.stop();
    this.#node = await startAnvil({ mining: 'manual', port, statePath: join(this.folder, 'state.json') });
    this.#floor = await this.height();
  }

  /** The canonical block of a transaction, or undefined for one that is waiting, dropped, reverted, or off the chain. */
  async canonicalHeight(hash: string): Promise<number | undefined> {
    const client = this.#client;
    const receipt = await client.getTransactionReceipt({ hash: hash as Hash }).catch(() => undefined);
    if (!receipt || receipt.status !== 'success') return undefined;
    const block = await client.getBlock({ blockNumber: receipt.blockNumber }).catch(() => undefined);
    return block?.hash === receipt.blockHash ? Number(receipt.blockNumber) : undefined;
  }

  async stop(): Promise<void> {
    await this.#node.stop();
    await rm(this.folder, { recursive: true, force: true });
  }
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** A token transfer's call data, paying `to` instead. */
function redirectTransfer(input: Hex, to: Address): Hex {
  const amount = BigInt(`0x${input.slice(10 + 64, 10 + 128)}`);
  return encodeFunctionData({ abi: TestToken.abi, functionName: 'transfer', args: [to, amount] });
}
