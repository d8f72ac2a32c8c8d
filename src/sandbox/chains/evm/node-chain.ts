// An EVM network watched on a JSON-RPC node (viem's client): blocks by number, ERC-20 Transfer events by block hash,
// value moved by every call of a transaction (so money an exchange's contract forwards is seen, not only top-level
// transfers), and the transactions waiting for a block. Every call has a timeout, so a node that accepts connections
// and never answers is unreachable within seconds. On a development node (anvil) it is also the sandbox's wallet.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  type Block,
  type Hex,
  type Log,
  type PublicClient,
  type Transaction,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AssetCode } from '../../../contract/index.js';
import { firstLine, log } from '../../logging.js';
import type { AssetConfig, NetworkConfig, NodeSource } from '../networks.js';
import {
  PayoutRefused,
  type BlockHeader,
  type ChainBlock,
  type ChainPort,
  type ChainTransfer,
  type ChainWallet,
  type PayoutFees,
  type PayoutPlan,
  type PayoutStep,
  type PayoutTerms,
  type RecordedPayout,
  type SentTransaction,
  type Signer,
  type SignedPayout,
  type SigningPayoutPort,
} from '../port.js';

const ERC20 = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function mint(address to, uint256 value)',
]);
/** How long the sandbox's calls to a development node may take. */
const SANDBOX_TIMEOUT_MS = 30_000;
const TRANSFER_TOPIC = keccak_256(new TextEncoder().encode('Transfer(address,address,uint256)'));

type Tracer = 'trace_block' | 'debug_traceBlockByHash';

/** A call as `trace_block` lists it; `traceAddress` places it in its transaction's tree of calls. */
interface ParityTrace {
  type: string;
  action: { callType?: string; from?: Hex; to?: Hex; value?: Hex; address?: Hex; refundAddress?: Hex; balance?: Hex };
  error?: string;
  traceAddress: number[];
  transactionHash?: Hex;
  blockHash: Hex;
}

/** A frame of the call tracer: a call, its value, and the calls it made. */
interface CallFrame {
  type: string;
  from: Hex;
  to?: Hex;
  value?: Hex;
  error?: string;
  calls?: CallFrame[];
}

/**
 * Gas for a payout of the native coin: a plain transfer's. An address whose code needs more (a contract) makes the
 * payout run out of gas on chain: it reverts there, and the refund fails with the amount back.
 */
const NATIVE_TRANSFER_GAS = 21_000n;
/** A payout seen nowhere in a block this long after it was signed is signed again with higher fees (same nonce). */
export const STUCK_MS = 60_000;
/** Each replacement's fees over the last one's: nodes take a replacement from 10% more. */
const FEE_BUMP_PERCENT = 25n;
/** Errors of eth_sendRawTransaction that mean the node has (or had) this very transaction. */
const ALREADY_SENT = /already known|known transaction|nonce too low|already imported/i;

export class EvmNodeChain implements ChainPort, ChainWallet, SigningPayoutPort {
  readonly #client: PublicClient;
  /**
   * The sandbox's calls (a faucet, mining a burst of blocks) may take a development node longer than the watcher's
   * timeout, which is short so that an outage shows at once: they have a client of their own.
   */
  readonly #sandbox: PublicClient;
  readonly #source: NodeSource;
  readonly #tokens: Map<string, AssetConfig>;
  readonly #native: AssetConfig;
  /** The tracers the node may have, the cheaper first; one it turns out to lack is dropped. */
  #tracers: Tracer[] = ['trace_block', 'debug_traceBlockByHash'];
  /** Sends from one process take turns: each needs the next nonce. */
  #sending: Promise<unknown> = Promise.resolve();

  private constructor(readonly network: NetworkConfig) {
    if (network.source.kind !== 'node') throw new Error(`${network.id} is not on a node`);
    this.#source = network.source;
    this.#client = nodeClient(this.#source);
    this.#sandbox = nodeClient({ ...this.#source, timeoutMs: Math.max(this.#source.timeoutMs, SANDBOX_TIMEOUT_MS) });
    this.#tokens = new Map(network.assets.filter((a) => a.token_contract).map((a) => [a.token_contract!.toLowerCase(), a]));
    const native = network.assets.find((a) => !a.token_contract);
    if (!native) throw new Error(`${network.id} has no native asset`);
    this.#native = native;
  }

  static async open(network: NetworkConfig): Promise<EvmNodeChain> {
    return new EvmNodeChain(network);
  }

  async head(): Promise<BlockHeader> {
    const [syncing, block] = await Promise.all([this.#client.request({ method: 'eth_syncing' } as never) as Promise<unknown>, this.#client.getBlock({ blockTag: 'latest' })]);
    // A dev node with no new blocks is not behind; a node that says it is syncing is.
    if (syncing !== false) throw new Error(`the node of ${this.network.id} is syncing: it is behind the chain`);
    return headerOf(block);
  }

  async header(height: number): Promise<BlockHeader | undefined> {
    const block = await this.#client.getBlock({ blockNumber: BigInt(height) }).catch((error: unknown) => {
      if ((error as Error).name === 'BlockNotFoundError') return undefined;
      throw error;
    });
    return block && headerOf(block);
  }

  async blocks(from: number, to: number): Promise<ChainBlock[]> {
    const heights = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
    const blocks = await Promise.all(heights.map((blockNumber) => this.#client.getBlock({ blockNumber, includeTransactions: true })));
    for (let i = 1; i < blocks.length; i++) {
      if (blocks[i]!.parentHash !== blocks[i - 1]!.hash) throw new Error(`${this.network.id} moved while its blocks were read (at ${blocks[i]!.number})`);
    }
    return Promise.all(
      blocks.map(async (block) => ({
        ...headerOf(block),
        parent_hash: block.parentHash,
        transfers: [...(await this.#tokenTransfers(block)), ...(await this.#valueTransfers(block))],
      })),
    );
  }

  async pending(): Promise<ChainTransfer[] | undefined> {
    const block = await this.#client.getBlock({ blockTag: 'pending', includeTransactions: true }).catch(() => undefined);
    if (!block) return undefined;
    return block.transactions.flatMap((tx) => this.#waitingTransfers(tx));
  }

  /** ERC-20 Transfer events of the configured tokens, by block hash: a lagging node answers a number with another block's. */
  async #tokenTransfers(block: Block<bigint, true>): Promise<ChainTransfer[]> {
    if (!this.#tokens.size) return [];
    const address = [...this.#tokens.values()].map((t) => t.token_contract as Hex);
    let logs: Log[] = await this.#client.getLogs({ address, event: ERC20[0], blockHash: block.hash! });
    // An empty answer for a block whose bloom says it may hold such an event is checked against the block's receipts:
    // behind a load balancer a node that has not caught up answers [] (never believed); a bloom's false positive is
    // then told apart by the receipts.
    if (!logs.length && address.some((a) => inBloom(block.logsBloom!, hexToBytes(a.slice(2))) && inBloom(block.logsBloom!, TRANSFER_TOPIC))) {
      const receipts = await this.#client.request({ method: 'eth_getBlockReceipts', params: [block.hash!] } as never) as { logs: Log[] }[] | null;
      if (!receipts) throw new Error(`${this.network.id}: the node does not have block ${block.hash} yet`);
      logs = receipts.flatMap((r) => r.logs).filter((l) => this.#tokens.has(l.address.toLowerCase()));
    }
    return parseEventLogs({ abi: ERC20, eventName: 'Transfer', logs }).flatMap((log) => {
      const token = this.#tokens.get(log.address.toLowerCase());
      if (!token || log.args.value === 0n || log.removed) return [];
      return [{ tx_hash: log.transactionHash!, position: `log:${log.logIndex}`, asset: token.asset, from: log.args.from, to: log.args.to, amount: log.args.value }];
    });
  }

  /**
   * The native coin moved by every call of every transaction that did not revert (a reverted call moves nothing, nor
   * do the calls under it). Traced with the node's own tracer: `trace_block` (anvil, Erigon, Nethermind, Reth; on
   * anvil a block of 100 transactions in 4 ms) or else the call tracer (geth; 1 s for the same block on anvil). A node
   * with neither, or one that cannot trace this block (its state is gone: pruned, or a development node restarted),
   * shows the value of the transactions themselves.
   */
  async #valueTransfers(block: Block<bigint, true>): Promise<ChainTransfer[]> {
    if (block.transactions.length) {
      for (const tracer of this.#tracers) {
        const traced = await this.#trace(tracer, block);
        if (traced) return traced;
      }
    }
    const paying = block.transactions.filter((tx) => tx.to && tx.value > 0n);
    if (!paying.length) return [];
    const receipts = await Promise.all(paying.map((tx) => this.#client.getTransactionReceipt({ hash: tx.hash })));
    return paying.filter((_, i) => receipts[i]!.status === 'success').map((tx) => this.#nativeTransfer(tx.hash, 'call:', tx.from, tx.to!, tx.value));
  }

  /** A block's value transfers by one tracer; undefined when it cannot trace this block. */
  async #trace(tracer: Tracer, block: Block<bigint, true>): Promise<ChainTransfer[] | undefined> {
    try {
      return tracer === 'trace_block' ? await this.#parityTrace(block) : await this.#callTrace(block);
    } catch (error) {
      if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'HttpRequestError') throw error;
      // A node that lacks the method never has it (JSON-RPC "method not found"); any other failure is this block's.
      if ((error as { code?: number }).code === -32601) {
        this.#tracers = this.#tracers.filter((t) => t !== tracer);
        if (!this.#tracers.length) log.warn({ network: this.network.id }, 'node: it traces no calls; money forwarded by contracts will not be seen');
      }
      return undefined;
    }
  }

  /** `trace_block`: a flat list of calls, each with its place in its transaction (traceAddress). */
  async #parityTrace(block: Block<bigint, true>): Promise<ChainTransfer[] | undefined> {
    const traces = (await this.#client.request({ method: 'trace_block', params: [`0x${block.number!.toString(16)}`] } as never)) as ParityTrace[] | null;
    if (!traces) return undefined;
    // Asked by number: the block traced must be the block read.
    if (traces.some((t) => t.blockHash !== block.hash)) throw new Error(`${this.network.id} moved while block ${block.number} was traced`);
    // A call that failed is undone with every call under it (whose traceAddress starts with its own).
    const failed = traces.filter((t) => t.error);
    const undone = (t: ParityTrace) => failed.some((f) => f.transactionHash === t.transactionHash && f.traceAddress.every((step, i) => t.traceAddress[i] === step));
    return traces.flatMap((t) => {
      if (!t.transactionHash || undone(t)) return [];
      const { type, action } = t;
      const [to, value] = type === 'call' && action.callType === 'call' ? [action.to, action.value] : type === 'suicide' ? [action.refundAddress, action.balance] : [];
      if (!to || !value || BigInt(value) === 0n) return [];
      return [this.#nativeTransfer(t.transactionHash, `call:${t.traceAddress.join('.')}`, action.from ?? action.address!, to, BigInt(value))];
    });
  }

  /** The call tracer (`debug_traceBlockByHash`): a tree of calls per transaction. */
  async #callTrace(block: Block<bigint, true>): Promise<ChainTransfer[] | undefined> {
    const traced = (await this.#client.request({ method: 'debug_traceBlockByHash', params: [block.hash!, { tracer: 'callTracer' }] } as never)) as {
      txHash: Hex;
      result?: CallFrame;
    }[];
    if (!traced.every((t) => t.result)) return undefined;
    return traced.flatMap(({ txHash, result }) => this.#calls(txHash, result!, []));
  }

  #calls(txHash: Hex, frame: CallFrame, path: number[]): ChainTransfer[] {
    if (frame.error) return [];
    const value = frame.value ? BigInt(frame.value) : 0n;
    const own = value > 0n && frame.to && (frame.type === 'CALL' || frame.type === 'SELFDESTRUCT') ? [this.#nativeTransfer(txHash, `call:${path.join('.')}`, frame.from, frame.to, value)] : [];
    return [...own, ...(frame.calls ?? []).flatMap((call, i) => this.#calls(txHash, call, [...path, i]))];
  }

  #nativeTransfer(tx_hash: string, position: string, from: string, to: string, amount: bigint): ChainTransfer {
    return { tx_hash, position, asset: this.#native.asset, from: getAddress(from), to: getAddress(to), amount };
  }

  /** What a waiting transaction moves: its value, or a token transfer it calls. Its events are known only once mined. */
  #waitingTransfers(tx: Transaction): ChainTransfer[] {
    if (!tx.to) return [];
    if (tx.value > 0n) return [this.#nativeTransfer(tx.hash, 'call:', tx.from, tx.to, tx.value)];
    const token = this.#tokens.get(tx.to.toLowerCase());
    if (!token) return [];
    try {
      const call = decodeFunctionData({ abi: ERC20, data: tx.input });
      if (call.functionName === 'transfer') {
        const [to, amount] = call.args;
        return amount > 0n ? [{ tx_hash: tx.hash, position: 'pending:0', asset: token.asset, from: getAddress(tx.from), to, amount }] : [];
      }
      if (call.functionName === 'transferFrom') {
        const [from, to, amount] = call.args;
        return amount > 0n ? [{ tx_hash: tx.hash, position: 'pending:0', asset: token.asset, from, to, amount }] : [];
      }
    } catch {
      // Not a call this gateway reads: it is seen once mined, if it moves anything.
    }
    return [];
  }

  // Payouts from the merchants' payout wallets (services/orders/payouts.ts).

  async locate(hash: string): Promise<SentTransaction | undefined> {
    const receipt = await this.#client.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
    if (receipt) return { height: Number(receipt.blockNumber), ok: receipt.status === 'success' };
    const waiting = await this.#client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
    return waiting ? { height: null, ok: true } : undefined;
  }

  async prepare({ from, to, asset, amount }: PayoutPlan): Promise<PayoutTerms & { gas: bigint; fees: PayoutFees }> {
    const token = this.#token(asset);
    const { maxFeePerGas, maxPriorityFeePerGas } = await this.#client.estimateFeesPerGas();
    const held = await this.balance(asset, from.address);
    if (held < amount) throw new PayoutRefused(`the payout wallet ${from.address} holds ${held} atomic units of ${asset}, less than the ${amount} to send`, true);
    let gas = NATIVE_TRANSFER_GAS;
    if (token) {
      try {
        gas = await this.#client.estimateGas({ account: from.address as Hex, to: token, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to as Hex, amount] }) });
      } catch (error) {
        throw new PayoutRefused(`the ${asset} contract refuses the transfer: ${firstLine(error)}`);
      }
    }
    const gasCost = gas * maxFeePerGas + (token ? 0n : amount);
    const native = await this.#client.getBalance({ address: from.address as Hex, blockTag: 'pending' });
    if (native < gasCost) throw new PayoutRefused(`the payout wallet ${from.address} holds ${native} wei of ${this.#native.asset}, less than the ${gasCost} the payout and its gas need`, true);
    return { gas, fees: { maxFeePerGas, maxPriorityFeePerGas } };
  }

  /** Sent again while the node knows none of the refund's transactions; replaced once the newest is stuck. */
  async step(newest: RecordedPayout, known: boolean, _head: BlockHeader, now: Date): Promise<PayoutStep> {
    if (!known) return 'broadcast';
    return now.getTime() - newest.signed_at.getTime() >= STUCK_MS ? 'replace' : 'wait';
  }

  /** The same payout at the same nonce, with fees a quarter higher (or the network's, if more). */
  async replacement(plan: PayoutPlan, previous: PayoutTerms): Promise<PayoutTerms> {
    const stuck = { gas: previous.gas!, fees: previous.fees! };
    const { gas, fees } = await this.prepare(plan).catch(() => ({ gas: stuck.gas, fees: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n } }));
    const bump = (fee: bigint) => (fee * (100n + FEE_BUMP_PERCENT)) / 100n;
    return {
      nonce: previous.nonce,
      gas: max(gas, stuck.gas),
      fees: { maxFeePerGas: max(bump(stuck.fees.maxFeePerGas), fees.maxFeePerGas), maxPriorityFeePerGas: max(bump(stuck.fees.maxPriorityFeePerGas), fees.maxPriorityFeePerGas) },
    };
  }

  async sign({ from, to, asset, amount }: PayoutPlan, { nonce, gas, fees }: PayoutTerms): Promise<SignedPayout> {
    if (nonce === undefined || gas === undefined || !fees) throw new Error('an EVM payout is signed with its nonce, gas and fees');
    const token = this.#token(asset);
    const account = privateKeyToAccount(`0x${bytesToHex(from.privateKey)}`);
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: this.network.chain_id!,
      nonce,
      gas,
      ...fees,
      ...(token ? { to: token, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to as Hex, amount] }) } : { to: to as Hex, value: amount }),
    });
    return { hash: keccak256(raw), raw };
  }

  async broadcast(raw: string): Promise<void> {
    try {
      await this.#client.request({ method: 'eth_sendRawTransaction', params: [raw as Hex] });
    } catch (error) {
      if (!ALREADY_SENT.test(String((error as Error).message))) throw error;
    }
  }

  async addressUsed(address: string): Promise<boolean> {
    const owner = getAddress(address);
    const [sent, native, ...tokens] = await Promise.all([
      this.#client.getTransactionCount({ address: owner }),
      this.#client.getBalance({ address: owner }),
      ...[...this.#tokens.values()].map((token) => this.#client.readContract({ address: token.token_contract as Hex, abi: ERC20, functionName: 'balanceOf', args: [owner] })),
    ]);
    return sent > 0 || native > 0n || tokens.some((held) => held > 0n);
  }

  async nonce(address: string): Promise<number> {
    return this.#client.getTransactionCount({ address: address as Hex, blockTag: 'pending' });
  }

  // The sandbox's wallet, on a development node.

  balance(asset: AssetCode, address: string): Promise<bigint> {
    const token = this.#token(asset);
    if (!token) return this.#sandbox.getBalance({ address: address as Hex, blockTag: 'pending' });
    return this.#sandbox.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [address as Hex], blockTag: 'pending' });
  }

  send(from: Signer, to: string, asset: AssetCode, amount: bigint): Promise<string> {
    const next = this.#sending.then(async () => {
      const wallet = createWalletClient({ account: privateKeyToAccount(`0x${bytesToHex(from.privateKey)}`), transport: http(this.#source.rpcUrl, { timeout: SANDBOX_TIMEOUT_MS }) });
      const chain = { id: this.network.chain_id!, name: this.network.name, nativeCurrency: { name: this.#native.asset, symbol: this.#native.asset, decimals: this.#native.decimals }, rpcUrls: { default: { http: [this.#source.rpcUrl] } } };
      const token = this.#token(asset);
      return token
        ? wallet.sendTransaction({ chain, to: token, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to as Hex, amount] }) })
        : wallet.sendTransaction({ chain, to: to as Hex, value: amount });
    });
    this.#sending = next.catch(() => undefined);
    return next;
  }

  async fund(address: string, asset: AssetCode, amount: bigint): Promise<void> {
    this.#assertDev('fund an address');
    const token = this.#token(asset);
    if (!token) {
      const balance = await this.#sandbox.getBalance({ address: address as Hex, blockTag: 'pending' });
      await this.#sandbox.request({ method: 'anvil_setBalance', params: [address as Hex, `0x${(balance + amount).toString(16)}`] } as never);
      return;
    }
    // The development token mints to anyone (chains/evm/contracts/TestToken.sol), sent by one of the node's own accounts.
    const [minter] = (await this.#sandbox.request({ method: 'eth_accounts' } as never)) as Hex[];
    if (!minter) throw new Error(`the node of ${this.network.id} has no accounts to mint with`);
    const hash = (await this.#sandbox.request({
      method: 'eth_sendTransaction',
      params: [{ from: minter, to: token, data: encodeFunctionData({ abi: ERC20, functionName: 'mint', args: [address as Hex, amount] }) }],
    } as never)) as Hex;
    // Confirmed at once: a node that mines only when told is told.
    const receipt = await this.#sandbox.getTransactionReceipt({ hash }).catch(() => undefined);
    if (!receipt) await this.mine(1);
  }

  async mine(blocks: number): Promise<number> {
    this.#assertDev('mine');
    await this.#sandbox.request({ method: 'anvil_mine', params: [`0x${blocks.toString(16)}`] } as never);
    return Number(await this.#sandbox.getBlockNumber({ cacheTime: 0 }));
  }

  #token(asset: AssetCode): Hex | undefined {
    if (asset === this.#native.asset) return undefined;
    const token = [...this.#tokens.values()].find((t) => t.asset === asset);
    if (!token) throw new Error(`${asset} is not on ${this.network.id}`);
    return token.token_contract as Hex;
  }

  #assertDev(what: string): void {
    if (!this.#source.dev) throw new Error(`${this.network.id} is a public network's node: the gateway cannot ${what} on it`);
  }
}

/** Whether the node is a development node (anvil): the sandbox may then fund and mine on it. */
export async function isDevelopmentNode(source: NodeSource): Promise<boolean> {
  const version = await nodeClient(source).request({ method: 'web3_clientVersion' });
  return /^anvil\//i.test(version);
}

/** The decimals a token's contract says it has. */
export function tokenDecimals(source: NodeSource, contract: string): Promise<number> {
  return nodeClient(source).readContract({ address: contract as Hex, abi: ERC20, functionName: 'decimals' });
}

/** A client whose every call gives up after the network's timeout, and which never retries on its own (the watcher does). */
function nodeClient(source: NodeSource): PublicClient {
  return createPublicClient({ transport: http(source.rpcUrl, { timeout: source.timeoutMs, retryCount: 0, batch: { wait: 0 } }) });
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

function headerOf(block: Block): BlockHeader {
  return { height: Number(block.number), hash: block.hash!, time: new Date(Number(block.timestamp) * 1000) };
}

/** Whether a 2048-bit logs bloom may hold `item` (an address or a topic): the three bits its keccak picks are set. */
function inBloom(bloom: Hex, item: Uint8Array): boolean {
  const bits = hexToBytes(bloom.slice(2));
  const hash = keccak_256(item);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
    if ((bits[255 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
