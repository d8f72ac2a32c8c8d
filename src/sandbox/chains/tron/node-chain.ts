// TRON watched on a node's JSON-RPC (DESIGN.md 9.1): blocks by number, and the Transfer logs of the one configured
// TRC-20 contract (TRON_USDT_CONTRACT) by block hash, each keyed by its transaction and log index, so two transfers in
// one transaction are two facts and a token of the same symbol at another contract is none. What TRON's JSON-RPC is,
// and this lives with: addresses are 20-byte hex (written back here as base58 `T…`), the logs bloom is always zero
// (so no block is skipped by it), `eth_syncing` says nothing about being behind (the head block's age does), and there
// is no `pending` block. A failed transfer (REVERT, OUT_OF_ENERGY) leaves no log, so it never counts. The follower
// (chains/follower.ts) does the rest as for EVM: a block it could not read is never passed, and a reorganisation above
// the solidified block is walked back.
import { tronAddressFromHex, tronAddressToHex } from '../../../codecs/addresses.js';
import type { AssetCode } from '../../../contract/index.js';
import type { AssetConfig, NetworkConfig, NodeSource } from '../networks.js';
import type { BlockHeader, ChainBlock, ChainPort, ChainTransfer } from '../port.js';
import { TronJsonRpc, TronProviderError } from './json-rpc.js';

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** balanceOf(address)'s selector. */
const BALANCE_OF = '0x70a08231';
const HASH = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,16}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

interface RpcBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
}

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

export class TronNodeChain implements ChainPort {
  readonly #rpc: TronJsonRpc;
  readonly #source: NodeSource;
  readonly #token: AssetConfig;
  /** The token's contract as the node writes it: 20-byte hex, lower case. */
  readonly #contract: string;
  /** The head as last read: the newest block is then not asked for again (about two calls a block: it and its logs). */
  #latest: RpcBlock | undefined;

  private constructor(readonly network: NetworkConfig) {
    if (network.source.kind !== 'node') throw new Error(`${network.id} is not on a node`);
    this.#source = network.source;
    const token = network.assets.find((a) => a.token_contract);
    if (!token) throw new Error(`${network.id} has no TRC-20 contract to watch`);
    this.#token = token;
    this.#contract = tronAddressToHex(token.token_contract!);
    this.#rpc = new TronJsonRpc({ url: this.#source.rpcUrl, timeoutMs: this.#source.timeoutMs, backoffMs: this.#source.pollMs, apiKey: this.#source.apiKey });
  }

  /** Opens the network's node; one that answers with another chain's id refuses the start (TRON_CHAIN_ID). */
  static async open(network: NetworkConfig): Promise<TronNodeChain> {
    const chain = new TronNodeChain(network);
    const expected = chain.#source.chainId;
    if (expected !== undefined) {
      const id = await chain.#rpc.call<string>('eth_chainId', []).catch(() => undefined);
      if (id !== undefined && id.toLowerCase() !== expected.toLowerCase()) throw new Error(`${network.id}: the node at TRON_RPC_URL serves chain ${id}, not TRON_CHAIN_ID ${expected}`);
    }
    return chain;
  }

  async head(): Promise<BlockHeader> {
    this.#latest = undefined;
    const latest = await this.#block('latest');
    if (!latest) throw new TronProviderError(`the node of ${this.network.id} has no latest block`);
    this.#latest = latest;
    const header = headerOf(latest);
    const age = Date.now() - header.time.getTime();
    if (this.#source.stallMs !== undefined && age > this.#source.stallMs) {
      throw new Error(`the node of ${this.network.id} is behind: its newest block (${header.height}) is ${Math.round(age / 1000)} s old`);
    }
    return header;
  }

  async header(height: number): Promise<BlockHeader | undefined> {
    const block = await this.#block(quantity(height));
    return block && headerOf(block);
  }

  async blocks(from: number, to: number): Promise<ChainBlock[]> {
    const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const latest = this.#latest;
    const blocks = await Promise.all(heights.map((height) => (latest && Number(BigInt(latest.number)) === height ? latest : this.#block(quantity(height)))));
    return Promise.all(
      blocks.map(async (block, i) => {
        if (!block) throw new Error(`${this.network.id}: the node has no block ${heights[i]} yet`);
        if (i > 0 && block.parentHash !== blocks[i - 1]!.hash) throw new Error(`${this.network.id} moved while its blocks were read (at ${heights[i]})`);
        return { ...headerOf(block), parent_hash: block.parentHash, transfers: await this.#transfers(block) };
      }),
    );
  }

  /** TRON's JSON-RPC has no `pending` block: waiting transfers are not shown, and none recorded is dropped on its say. */
  async pending(): Promise<undefined> {
    return undefined;
  }

  /**
   * Whether the chain shows the address used (the restore's scan, services/merchant/address-scan.ts): it holds TRX or
   * the token. TRON's JSON-RPC refuses eth_getTransactionCount, so an address that sent everything it held away reads
   * as unused; the restore's margin covers it.
   */
  async addressUsed(address: string): Promise<boolean> {
    const [trx, held] = await Promise.all([this.#rpc.call<string>('eth_getBalance', [tronAddressToHex(address), 'latest']), this.#tokenBalance(address)]);
    if (!QUANTITY.test(trx)) throw new TronProviderError(`${this.network.id}: the TRX balance of ${address} is not a number (${trx})`);
    return BigInt(trx) > 0n || held > 0n;
  }

  /**
   * The token's balanceOf each address, one call after another (a cross-check is a few calls beside the watcher's,
   * never a burst), then the head's number. `eth_call` takes `latest` only on TRON (java-tron refuses `finalized` and
   * block numbers), so the balances are the tip's, and the height read after them bounds the block they are of.
   */
  async tokenBalances(addresses: readonly string[]): Promise<{ asset: AssetCode; height: number; balances: bigint[] }> {
    const balances: bigint[] = [];
    for (const address of addresses) balances.push(await this.#tokenBalance(address));
    const height = await this.#rpc.call<string>('eth_blockNumber', []);
    if (!QUANTITY.test(height)) throw new TronProviderError(`${this.network.id}: eth_blockNumber answered ${JSON.stringify(height).slice(0, 100)}, not a number`);
    return { asset: this.#token.asset, height: Number(BigInt(height)), balances };
  }

  async #tokenBalance(address: string): Promise<bigint> {
    const owner = tronAddressToHex(address);
    const held = await this.#rpc.call<string>('eth_call', [{ to: this.#contract, data: `${BALANCE_OF}${owner.slice(2).padStart(64, '0')}` }, 'latest']);
    if (typeof held !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(held)) throw new TronProviderError(`${this.network.id}: the token balance of ${address} is not a number (${JSON.stringify(held).slice(0, 100)})`);
    return held === '0x' ? 0n : BigInt(held);
  }

  /** The configured contract's Transfer logs in a block, by its hash: a lagging node answers a number with another block's. */
  async #transfers(block: RpcBlock): Promise<ChainTransfer[]> {
    const logs = await this.#rpc.call<RpcLog[]>('eth_getLogs', [{ blockHash: block.hash, address: this.#contract, topics: [TRANSFER_TOPIC] }]);
    if (!Array.isArray(logs)) throw new TronProviderError(`eth_getLogs answered ${typeof logs}, not a list`);
    return logs.flatMap((log) => {
      if (log.blockHash !== block.hash) throw new Error(`${this.network.id} moved while block ${block.hash} was read (a log of ${String(log.blockHash)})`);
      if (log.removed || String(log.address).toLowerCase() !== this.#contract) return [];
      const [topic, from, to] = log.topics ?? [];
      if (topic !== TRANSFER_TOPIC || !WORD.test(from ?? '') || !WORD.test(to ?? '') || !WORD.test(log.data) || !HASH.test(log.transactionHash) || !QUANTITY.test(log.logIndex)) {
        throw new TronProviderError(`${this.network.id}: a Transfer log of block ${block.hash} is not one (${JSON.stringify(log).slice(0, 200)})`);
      }
      const amount = BigInt(log.data);
      if (amount === 0n) return [];
      return [
        {
          // TRON writes a transaction's id without 0x (its explorers, its HTTP API).
          tx_hash: log.transactionHash.slice(2).toLowerCase(),
          position: `log:${Number(BigInt(log.logIndex))}`,
          asset: this.#token.asset,
          from: tronAddressFromHex(`0x${from!.slice(-40)}`),
          to: tronAddressFromHex(`0x${to!.slice(-40)}`),
          amount,
        },
      ];
    });
  }

  async #block(tag: string): Promise<RpcBlock | undefined> {
    const block = await this.#rpc.call<RpcBlock | null>('eth_getBlockByNumber', [tag, false]);
    if (block === null) return undefined;
    if (typeof block !== 'object' || !QUANTITY.test(block.number) || !HASH.test(block.hash) || !HASH.test(block.parentHash) || !QUANTITY.test(block.timestamp)) {
      throw new TronProviderError(`${this.network.id}: eth_getBlockByNumber(${tag}) answered no block (${JSON.stringify(block).slice(0, 200)})`);
    }
    return block;
  }
}

const quantity = (height: number) => `0x${height.toString(16)}`;

function headerOf(block: RpcBlock): BlockHeader {
  // TRON's JSON-RPC gives the block's time in seconds, as Ethereum's does.
  return { height: Number(BigInt(block.number)), hash: block.hash, time: new Date(Number(BigInt(block.timestamp)) * 1000) };
}
