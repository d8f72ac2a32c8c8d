// The node of a node pass of the model test (test/helpers/payment-model.ts): Ethereum's, a private anvil that mines
// only when told, keeps its chain in a state file across restarts, and is reorganised, rewound and restarted by the
// test; or TRON's, the stand-in (test/helpers/tron-node.ts: anvil on Nile's chain id behind a layer answering as
// java-tron does), reorganised above its solidified block and throttled by the test. Either way the test's own moves go
// to the anvil underneath, and what it shows is the truth the gateway's counts are checked against.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestClient, encodeFunctionData, http, publicActions, type Address, type Hash, type Hex } from 'viem';
import { tronAddressFromHex, tronAddressToHex } from '../../src/codecs/addresses.js';
import { startAnvil, type AnvilNode } from '../../src/sandbox/chains/evm/anvil.js';
import { TestToken, Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { SOLIDIFICATION_DEPTH, startTronNode, type TronNode } from './tron-node.js';

export type ModelNetwork = 'ETHEREUM' | 'TRON';

/** What a node does besides mining, each a step of the random sequences (payment-model.ts, NODE_EVENTS). */
export type NodeEvent = 'reorg' | 'rewind' | 'node restart' | 'throttle';

/**
 * TRON's confirmations in the TRON pass: the reference model's and the simulator's 3 (test/helpers/payment-reference.ts,
 * docs/payment-lifecycle.md), not TRON's 19, so that the model's fixed scenarios confirm TRON money as they do the
 * other networks', and its reorganisations (at most 6 blocks, all above the stand-in's solidified block, 19 back as
 * java-tron's) reach confirmed money, paid and refunded, as they do on Ethereum. The stand-in's solidification depth
 * stays TRON's: the watcher never reads the solidified block (chains/tron/node-chain.ts), so a shallower one would
 * make nothing faster, and a reorganisation above it is one TRON can have.
 */
export const TRON_MODEL_CONFIRMATIONS = 3;

export class ModelNode {
  #node: AnvilNode;
  /**
   * The lowest block a reorganisation may take back: above the token's contract, and above a restart (a restarted
   * anvil keeps its blocks but not the states behind them, so it can only reorganise what it mined since).
   */
  #floor = 0;

  private constructor(
    readonly network: ModelNetwork,
    node: AnvilNode,
    /** Ethereum's: where anvil keeps its chain across restarts. */
    private readonly folder: string | undefined,
    /** TRON's: the layer the gateway is given, in front of `node`. */
    private readonly tron: TronNode | undefined,
    readonly token: Address,
    /** Where a double-spend sends the coins instead. */
    private readonly elsewhere: Address,
  ) {
    this.#node = node;
  }

  static async start(network: ModelNetwork = 'ETHEREUM'): Promise<ModelNode> {
    let model: ModelNode;
    if (network === 'TRON') {
      const tron = await startTronNode();
      model = new ModelNode(network, tron.anvil, undefined, tron, tron.token, tron.other);
    } else {
      const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-model-node-'));
      const node = await startAnvil({ mining: 'manual', statePath: join(folder, 'state.json') });
      const [deployer, elsewhere] = (await createTestClient({ mode: 'anvil', transport: http(node.rpcUrl) }).extend(publicActions).request({ method: 'eth_accounts' } as never)) as [
        Address,
        Address,
      ];
      const token = await deployContract(node.rpcUrl, deployer, TestToken, ['Tether USD (test)', 'USDT', 6], { mine: true });
      model = new ModelNode(network, node, folder, undefined, token, elsewhere);
    }
    model.#floor = await model.height();
    return model;
  }

  /** What the node does in its pass: Ethereum's anvil is rewound and restarted; TRON's provider throttles. */
  get events(): readonly NodeEvent[] {
    return this.tron ? ['reorg', 'throttle'] : ['reorg', 'rewind', 'node restart'];
  }

  /**
   * Whether the sandbox's wallet sends and mines on the node, as on a development node (anvil as Ethereum); TRON's is a
   * public network's node to the gateway, so the test pays and mines on it itself (pay, mine).
   */
  get sandboxSends(): boolean {
    return !this.tron;
  }

  /**
   * Makes sure the last `depth` blocks may be taken back (mining what is missing above the floor, with whatever waits
   * for a block in them), so that every reorganisation the test asks for happens.
   */
  async reorganisable(depth: number): Promise<void> {
    const missing = depth - ((await this.height()) - this.#floor);
    if (missing > 0) await this.#client.mine({ blocks: missing });
  }

  /** What the gateway processes are configured with: the network (its USDT, and ETH on Ethereum) on this node, followed fast. */
  get env(): Record<string, string> {
    if (!this.tron) return { ETHEREUM_RPC_URL: this.#node.rpcUrl, ETHEREUM_USDT_CONTRACT: this.token, ETHEREUM_POLL_MS: '150', ETHEREUM_TIMEOUT_MS: '1000' };
    return {
      TRON_RPC_URL: this.tron.rpcUrl,
      TRON_USDT_CONTRACT: tronAddressFromHex(this.token),
      TRON_POLL_MS: '150',
      TRON_TIMEOUT_MS: '1000',
      TRON_CONFIRMATIONS: String(TRON_MODEL_CONFIRMATIONS),
      // The stand-in mines only when a step says: a minute without a TRON block is the model's choice, not a node behind.
      TRON_STALL_MS: String(3_600_000),
    };
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

  /** The customer pays `to` (a base58 address) `amount` of the USDT stand-in, in the next block: TRON's transaction id. */
  async pay(to: string, amount: bigint): Promise<string> {
    if (!this.tron) throw new Error('Ethereum’s node is paid through the sandbox’s wallet');
    const { client, customer, token } = this.tron;
    const hash = await client.writeContract({ account: customer, chain: null, address: token, abi: Trc20TestToken.abi, functionName: 'transfer', args: [tronAddressToHex(to) as Address, amount] });
    // TRON writes a transaction's id without 0x.
    return hash.slice(2);
  }

  async mine(blocks: number): Promise<void> {
    await this.#client.mine({ blocks });
  }

  /**
   * Replaces the last `depth` blocks. With `doubleSpend`, the first transaction of the orphaned blocks is spent again
   * in the new ones, by the same sender with the same nonce, to another address. Returns whether one was.
   */
  async reorg(depth: number, doubleSpend: boolean): Promise<boolean> {
    // java-tron never takes back a solidified block.
    if (this.tron && depth >= SOLIDIFICATION_DEPTH) throw new Error(`a TRON reorganisation of ${depth} blocks reaches its solidified block`);
    const client = this.#client;
    const tip = await client.getBlockNumber();
    let replacements: [Record<string, string | undefined>, number][] = [];
    if (doubleSpend) {
      const orphaned = await Promise.all(Array.from({ length: depth }, (_, i) => client.getBlock({ blockNumber: tip - BigInt(i), includeTransactions: true })));
      const spent = orphaned.flatMap((b) => b.transactions).find((t) => t.to && (t.value > 0n || t.to.toLowerCase() === this.token.toLowerCase()));
      if (spent) {
        // The sender's key is the gateway's test wallet's (or the stand-in's customer's): the node signs for it while it
        // is impersonated.
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
    if (!this.folder) throw new Error('the TRON stand-in keeps no chain across a restart');
    const { port } = this.#node;
    await this.#node.stop();
    this.#node = await startAnvil({ mining: 'manual', port, statePath: join(this.folder, 'state.json') });
    this.#floor = await this.height();
  }

  /** TRON's provider refuses every call with HTTP 429 (on), or answers again (off). */
  throttle(on: boolean): void {
    if (!this.tron) throw new Error('Ethereum’s anvil is not throttled');
    this.tron.throttle(on ? 429 : undefined);
  }

  /** How many calls TRON's provider has refused so far. */
  refusals(): number {
    return this.tron?.calls.filter((c) => c.throttled).length ?? 0;
  }

  /** The canonical block of a transaction (TRON's without 0x), or undefined for one waiting, dropped, reverted, or off the chain. */
  async canonicalHeight(hash: string): Promise<number | undefined> {
    const client = this.#client;
    const receipt = await client.getTransactionReceipt({ hash: (hash.startsWith('0x') ? hash : `0x${hash}`) as Hash }).catch(() => undefined);
    if (!receipt || receipt.status !== 'success') return undefined;
    const block = await client.getBlock({ blockNumber: receipt.blockNumber }).catch(() => undefined);
    return block?.hash === receipt.blockHash ? Number(receipt.blockNumber) : undefined;
  }

  async stop(): Promise<void> {
    if (this.tron) await this.tron.stop();
    else await this.#node.stop();
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
  }
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** A token transfer's call data, paying `to` instead. */
function redirectTransfer(input: Hex, to: Address): Hex {
  const amount = BigInt(`0x${input.slice(10 + 64, 10 + 128)}`);
  return encodeFunctionData({ abi: TestToken.abi, functionName: 'transfer', args: [to, amount] });
}
