// TRON watched on a node's JSON-RPC (DESIGN.md 9.1): blocks by number, and the Transfer logs of the one configured
// TRC-20 contract (TRON_USDT_CONTRACT) by block hash, each keyed by its transaction and log index, so two transfers in
// one transaction are two facts and a token of the same symbol at another contract is none. What TRON's JSON-RPC is,
// and this lives with: addresses are 20-byte hex (written back here as base58 `T…`), the logs bloom is always zero
// (so no block is skipped by it), `eth_syncing` says nothing about being behind (the head block's age does), and there
// is no `pending` block. A failed transfer (REVERT, OUT_OF_ENERGY) leaves no log, so it never counts. The follower
// (chains/follower.ts) does the rest as for EVM: a block it could not read is never passed, and a reorganisation above
// the solidified block is walked back.
// Refunds are paid here too (services/orders/payouts.ts): TRC-20 transfers built and signed by transaction.ts, sent
// with the HTTP API's /wallet/broadcasthex and followed with /wallet/gettransactioninfobyid. A TRON transaction has no
// nonce: it names a recent block and expires, and a refund is given a new one only once its last expired by the
// chain's own head block time and the node knows it not, so two can never both land.
import { tronAddressFromHex, tronAddressToHex } from '../../../codecs/addresses.js';
import type { AssetCode } from '../../../contract/index.js';
import { log } from '../../logging.js';
import type { AssetConfig, NetworkConfig, NodeSource } from '../networks.js';
import {
  PayoutRefused,
  type BlockHeader,
  type ChainBlock,
  type ChainPort,
  type ChainTransfer,
  type PayoutPlan,
  type PayoutStep,
  type PayoutTerms,
  type RecordedPayout,
  type SentTransaction,
  type SignedPayout,
  type SigningPayoutPort,
} from '../port.js';
import { TronJsonRpc, TronProviderError, TronRpcError } from './json-rpc.js';
import { blockReference, encodeTrc20Transfer, MAX_FEE_LIMIT_SUN, signTransaction } from './transaction.js';

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** balanceOf(address)'s selector. */
const BALANCE_OF = '0x70a08231';
/** transfer(address,uint256)'s selector. */
const TRANSFER = '0xa9059cbb';
/**
 * How long after its reference block's time a payout may still be put in a block: minutes, so that a payout the
 * network lost is signed again soon, and far under java-tron's 24 h (transaction.ts, MAX_EXPIRATION_MS).
 */
export const PAYOUT_EXPIRY_MS = 5 * 60_000;
/** A payout's fee_limit over what its estimated energy costs at the network's price. */
const FEE_LIMIT_MARGIN_PERCENT = 25n;
/** A payout the node shows no result of is broadcast again at most this often (it answers DUP_TRANSACTION_ERROR while it holds it). */
const REBROADCAST_MS = 10_000;
/** Broadcast answers that mean this transaction can never be taken: the refund fails with TRON's words. */
const REFUSED_FOR_GOOD = new Set(['SIGERROR', 'CONTRACT_VALIDATE_ERROR']);
/** Broadcast answers that mean the transaction is too old (or names a block the node lacks): it is signed again once expired. */
const SIGN_AGAIN = new Set(['TRANSACTION_EXPIRATION_ERROR', 'TAPOS_ERROR']);
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

export class TronNodeChain implements ChainPort, SigningPayoutPort {
  readonly #rpc: TronJsonRpc;
  readonly #source: NodeSource;
  readonly #token: AssetConfig;
  /** The token's contract as the node writes it: 20-byte hex, lower case. */
  readonly #contract: string;
  /** The head as last read: the newest block is then not asked for again (about two calls a block: it and its logs). */
  #latest: RpcBlock | undefined;
  /** When each payout (by its hex) was last broadcast by this process: a restart sends it again at once. */
  readonly #broadcastAt = new Map<string, number>();

  private constructor(readonly network: NetworkConfig) {
    if (network.source.kind !== 'node') throw new Error(`${network.id} is not on a node`);
    this.#source = network.source;
    const token = network.assets.find((a) => a.token_contract);
    if (!token) throw new Error(`${network.id} has no TRC-20 contract to watch`);
    this.#token = token;
    this.#contract = tronAddressToHex(token.token_contract!);
    this.#rpc = new TronJsonRpc({ url: this.#source.rpcUrl, apiUrl: this.#source.apiUrl, timeoutMs: this.#source.timeoutMs, backoffMs: this.#source.pollMs, apiKey: this.#source.apiKey });
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
    const [trx, held] = await Promise.all([this.#trx(address), this.#tokenBalance(address)]);
    return trx > 0n || held > 0n;
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

  // Payouts from the merchants' payout wallets (services/orders/payouts.ts).

  /** What an address holds of the token (balanceOf, at the latest block: TRON's JSON-RPC has no pending one). */
  async balance(asset: AssetCode, address: string): Promise<bigint> {
    if (asset !== this.#token.asset) throw new Error(`${asset} is not on ${this.network.id}`);
    return this.#tokenBalance(address);
  }

  /** The TRX of an address, in sun. */
  async #trx(address: string): Promise<bigint> {
    const trx = await this.#rpc.call<string>('eth_getBalance', [tronAddressToHex(address), 'latest']);
    if (!QUANTITY.test(trx)) throw new TronProviderError(`${this.network.id}: the TRX balance of ${address} is not a number (${String(trx).slice(0, 100)})`);
    return BigInt(trx);
  }

  /**
   * A payout's terms: the head block as its reference, expiring PAYOUT_EXPIRY_MS after the head's time, and a
   * fee_limit of the energy `eth_estimateGas` says the transfer takes at `eth_gasPrice` (sun per energy), with a
   * margin, at most MAX_FEE_LIMIT_SUN. The wallet must hold the token, and TRX and energy enough to cover the
   * fee_limit; else it waits to be funded.
   */
  async prepare({ from, to, asset, amount }: PayoutPlan): Promise<PayoutTerms> {
    const held = await this.balance(asset, from.address);
    if (held < amount) throw new PayoutRefused(`the payout wallet ${from.address} holds ${held} atomic units of ${asset}, less than the ${amount} to send`, true);
    const owner = tronAddressToHex(from.address);
    const data = `${TRANSFER}${tronAddressToHex(to).slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
    const [energy, price, trx, resource, head] = await Promise.all([
      this.#rpc.call<string>('eth_estimateGas', [{ from: owner, to: this.#contract, data }]).catch((error: unknown) => {
        if (error instanceof TronRpcError) throw new PayoutRefused(`the ${asset} contract refuses the transfer: ${error.message}`);
        throw error;
      }),
      this.#rpc.call<string>('eth_gasPrice', []),
      this.#trx(from.address),
      this.#rpc.wallet('/wallet/getaccountresource', { address: `41${owner.slice(2)}` }),
      this.#block('latest'),
    ]);
    if (!QUANTITY.test(energy) || !QUANTITY.test(price)) throw new TronProviderError(`${this.network.id}: the energy estimate (${String(energy).slice(0, 50)}) or its price (${String(price).slice(0, 50)}) is not a number`);
    if (!head) throw new TronProviderError(`the node of ${this.network.id} has no latest block`);
    const sunPerEnergy = BigInt(price);
    const needed = (BigInt(energy) * sunPerEnergy * (100n + FEE_LIMIT_MARGIN_PERCENT)) / 100n;
    const feeLimit = needed < 1n ? 1n : needed > MAX_FEE_LIMIT_SUN ? MAX_FEE_LIMIT_SUN : needed;
    const staked = whole(resource.EnergyLimit, 'EnergyLimit') - whole(resource.EnergyUsed, 'EnergyUsed');
    const available = staked > 0n ? staked : 0n;
    if (trx + available * sunPerEnergy < feeLimit) {
      throw new PayoutRefused(
        `the payout wallet ${from.address} holds ${trx} sun of TRX and ${available} energy (${available * sunPerEnergy} sun at ${sunPerEnergy} sun each), less than the fee_limit of ${feeLimit} sun its transfer may burn`,
        true,
      );
    }
    const time = headerOf(head).time;
    return { reference: { number: headerOf(head).height, id: head.hash, time }, expiresAt: new Date(time.getTime() + PAYOUT_EXPIRY_MS), feeLimit };
  }

  /**
   * While the node shows no result of the newest transaction: it is broadcast again (at most every REBROADCAST_MS;
   * a restart at once), until the head block's time passes its expiry. Only then, never in a block and unknown to the
   * node, it can no longer land, and the refund is given a new one.
   */
  async step(newest: RecordedPayout, known: boolean, head: BlockHeader): Promise<PayoutStep> {
    if (known) return 'wait';
    const { expiresAt } = newest.terms;
    if (!expiresAt) throw new Error(`the payout ${newest.hash} has no expiry: it is no TRON transaction`);
    if (head.time.getTime() >= expiresAt.getTime()) return 'replace';
    const sent = this.#broadcastAt.get(newest.raw);
    return sent !== undefined && Date.now() - sent < REBROADCAST_MS ? 'wait' : 'broadcast';
  }

  /** A new transaction for a refund whose last expired: a new reference, expiry and fee_limit, the funds asked again. */
  replacement(plan: PayoutPlan): Promise<PayoutTerms> {
    return this.prepare(plan);
  }

  async sign({ from, to, amount }: PayoutPlan, { reference, expiresAt, feeLimit }: PayoutTerms): Promise<SignedPayout> {
    if (!reference || !expiresAt || feeLimit === undefined) throw new Error('a TRON payout is signed with its reference block, expiry and fee_limit');
    const rawData = encodeTrc20Transfer({
      owner: from.address,
      contract: this.#token.token_contract!,
      to,
      amount,
      feeLimit,
      reference: blockReference(reference),
      timestamp: reference.time.getTime(),
      expiration: expiresAt.getTime(),
    });
    const signed = signTransaction(rawData, from.privateKey);
    return { hash: signed.txID, raw: signed.transactionHex };
  }

  /**
   * /wallet/broadcasthex. DUP_TRANSACTION_ERROR: the node has it. TRANSACTION_EXPIRATION_ERROR, TAPOS_ERROR: it can
   * no longer be taken here, and the refund is signed again once it has expired (step). SIGERROR,
   * CONTRACT_VALIDATE_ERROR: never taken; PayoutRefused. Anything else (SERVER_BUSY, NO_CONNECTION, …): thrown, and
   * sent again in a later round.
   */
  async broadcast(raw: string): Promise<void> {
    const answer = await this.#rpc.wallet('/wallet/broadcasthex', { transaction: raw });
    const code = typeof answer.code === 'string' ? answer.code : answer.result === true ? 'SUCCESS' : undefined;
    if (code === undefined) throw new TronProviderError(`${this.network.id}: broadcasthex answered no result (${JSON.stringify(answer).slice(0, 200)})`);
    const said = `${code}: ${words(answer.message)}`;
    if (REFUSED_FOR_GOOD.has(code)) throw new PayoutRefused(said);
    if (code !== 'SUCCESS' && code !== 'DUP_TRANSACTION_ERROR' && !SIGN_AGAIN.has(code)) throw new Error(`${this.network.id}: the node did not take the payout now (${said}); it is sent again`);
    const now = Date.now();
    for (const [sent, at] of this.#broadcastAt) if (now - at >= REBROADCAST_MS) this.#broadcastAt.delete(sent);
    this.#broadcastAt.set(raw, now);
    if (SIGN_AGAIN.has(code)) log.warn({ network: this.network.id, txid: answer.txid, code }, `payouts: the node no longer takes this transaction (${said}); it is signed again once expired`);
  }

  /**
   * /wallet/gettransactioninfobyid: `{}` while the transaction is in no block. In one, its receipt's result says
   * whether it paid (SUCCESS), or why not (REVERT, OUT_OF_ENERGY, with the message TRON gives).
   */
  async locate(hash: string): Promise<SentTransaction | undefined> {
    const info = await this.#rpc.wallet('/wallet/gettransactioninfobyid', { value: hash });
    if (!Object.keys(info).length) return undefined;
    const height = info.blockNumber;
    if (info.id !== hash || typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0) {
      throw new TronProviderError(`${this.network.id}: the info of ${hash} is not one (${JSON.stringify(info).slice(0, 200)})`);
    }
    const result = (info.receipt as { result?: unknown } | undefined)?.result;
    if (result === 'SUCCESS' && info.result !== 'FAILED') return { height, ok: true };
    const message = info.resMessage === undefined ? '' : ` (${words(info.resMessage)})`;
    return { height, ok: false, failure: `${String(result ?? info.result ?? 'no result')}${message}` };
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

/** A whole number of an HTTP API answer, 0 where TRON leaves it out (as it does every field at 0). */
function whole(value: unknown, name: string): bigint {
  if (value === undefined) return 0n;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new TronProviderError(`${name} is not a whole number (${String(value).slice(0, 50)})`);
  return BigInt(value);
}

/** A message of TRON's HTTP API, bounded: hex-encoded UTF-8 (a transaction's resMessage) read as text. */
function words(value: unknown): string {
  const text = String(value ?? '');
  const decoded = /^(?:[0-9a-fA-F]{2})+$/.test(text) ? new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(text, 'hex')) : text;
  return decoded.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

function headerOf(block: RpcBlock): BlockHeader {
  // TRON's JSON-RPC gives the block's time in seconds, as Ethereum's does.
  return { height: Number(BigInt(block.number)), hash: block.hash, time: new Date(Number(BigInt(block.timestamp)) * 1000) };
}
