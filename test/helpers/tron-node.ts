// The TRON stand-in (DESIGN.md 9.1): a private anvil on Nile's chain id behind a loopback server that answers as a
// TronGrid origin does, `/jsonrpc` as java-tron's JSON-RPC and `/wallet/…`, `/walletsolidity/…` as its HTTP API. What
// the layer changes is what java-tron does differently, from its sources (tronprotocol/java-tron,
// framework/src/main/java/org/tron/core/services/jsonrpc/TronJsonRpc.java, TronJsonRpcImpl.java, Wallet.java,
// filters/LogFilterWrapper.java, types/BlockResult.java, TransactionReceipt.java; jsonrpc4j's JsonRpcBasicServer for the
// envelope) and its API documents (tronprotocol/documentation-en, docs/api/json-rpc/*.md, docs/api/http/*). A test
// switches throttling and a lagging head at run time, programs the HTTP API's answers, and reads the call log to
// assert the watcher never called a method TRON refuses.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { createTestClient, http, publicActions, recoverAddress, walletActions, type Address, type Hex } from 'viem';
import { startAnvil, type AnvilNode } from '../../src/sandbox/chains/evm/anvil.js';
import { Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { tronAddressFromHex } from '../../src/codecs/addresses.js';
import { networksFrom } from '../../src/sandbox/chains/configuration.js';
import { ready, useTestGateway, type FixtureOptions } from './fixture.js';

/** Nile's `eth_chainId` (the last 4 bytes of its genesis block id). */
export const NILE_CHAIN_ID = 0xcd8690dc;
/** Blocks behind the head that java-tron reports solidified (two thirds of 27 witnesses, less one: 19 blocks back). */
export const SOLIDIFICATION_DEPTH = 19;
/** java-tron's `node.jsonrpc.maxBlockRange` default. */
export const MAX_BLOCK_RANGE = 5000;

/** A provider's refusal: an HTTP status, a 200 carrying `{"Error": …}`, or a 200 whose body is not JSON-RPC. */
export type Throttle = 403 | 429 | 503 | 'error-body' | 'not-json-rpc';

export interface TronCall {
  /** `/jsonrpc`, or an HTTP API path such as `/wallet/broadcasthex`. */
  path: string;
  /** The JSON-RPC method (one per entry of a batch). */
  method?: string;
  params?: unknown[];
  /** The `TRON-PRO-API-KEY` header the request carried. */
  apiKey?: string;
  /** The JSON-RPC error the layer answered, when it refused. */
  error?: { code: number; message: string };
  throttled?: Throttle;
}

/** `/wallet/broadcasthex`'s `code` values (api.proto `Return.response_code`). */
export type BroadcastCode =
  | 'SUCCESS'
  | 'SIGERROR'
  | 'CONTRACT_VALIDATE_ERROR'
  | 'CONTRACT_EXE_ERROR'
  | 'BANDWITH_ERROR'
  | 'DUP_TRANSACTION_ERROR'
  | 'TAPOS_ERROR'
  | 'TOO_BIG_TRANSACTION_ERROR'
  | 'TRANSACTION_EXPIRATION_ERROR'
  | 'SERVER_BUSY'
  | 'NO_CONNECTION'
  | 'NOT_ENOUGH_EFFECTIVE_CONNECTION'
  | 'BLOCK_UNSOLIDIFIED'
  | 'OTHER_ERROR';

export interface Broadcast {
  /** The hex the client sent. */
  transaction: string;
  /** sha256 of raw_data, hex without 0x. */
  txid: string;
  code: BroadcastCode;
}

/** A TRON transaction info (protocol.TransactionInfo as the HTTP API prints it, visible=false). */
export type TransactionInfo = Record<string, unknown>;

export interface TronNode {
  /** The origin, as TronGrid's (`TRON_API_URL` defaults to it). */
  readonly url: string;
  /** `${url}/jsonrpc`, for `TRON_RPC_URL`. */
  readonly rpcUrl: string;
  /** anvil itself, for the test's own moves (mine, reorg); the gateway is never given it. */
  readonly anvil: AnvilNode;
  readonly client: ReturnType<typeof testClient>;
  /** The USDT stand-in (Trc20TestToken, 6 decimals), with the customer's coins minted. */
  readonly token: Address;
  readonly customer: Address;
  readonly other: Address;
  /** Every request, in order; a method TRON refuses shows as `error.code` -32601. */
  readonly calls: TronCall[];
  /** Until called again with undefined, every request is refused so. */
  throttle(mode: Throttle | undefined): void;
  /** Holds the head at `height` (default: the current one) until `catchUp()`; the blocks above it are not there. */
  lag(height?: bigint): Promise<void>;
  catchUp(): void;
  /**
   * The next `eth_getLogs` answers that hold a log of this transaction leave it out, `times` of them (default once;
   * Infinity: every one), as a flaky provider's backend does (a lagging replica behind a balancer); the transaction's
   * hash is in `withheld` once for each answer that left it out.
   */
  dropLogs(txHash: string, times?: number): void;
  /** The transactions whose logs an answer left out, in order. */
  readonly withheld: string[];
  /** The HTTP API's programmable answers. */
  readonly api: TronApi;
  stop(): Promise<void>;
}

export interface TronApi {
  /** What `gettransactioninfobyid` answers for `txid` instead of what anvil's receipt says. */
  setTransactionInfo(txid: string, info: TransactionInfo): void;
  /** The next broadcasts answer these codes (in order) whatever they carry; then the checks apply again. */
  failBroadcasts(codes: BroadcastCode[]): void;
  /** Every `broadcasthex` received. */
  readonly broadcasts: Broadcast[];
  /** What `getaccountresource` answers for the address (hex, 41…); `{}` for any other. */
  setAccountResource(address: string, resource: Record<string, unknown>): void;
  /** A lite full node: the history queries answer its plain-text refusal. */
  liteNode(on: boolean): void;
}

export interface TronNodeOptions {
  /** Default SOLIDIFICATION_DEPTH. */
  solidificationDepth?: number;
  /** java-tron's `node.jsonrpc.maxBlockRange`; default MAX_BLOCK_RANGE (anvil mines 5,000 blocks in about 20 s). */
  maxBlockRange?: number;
}

const testClient = (rpcUrl: string) =>
  createTestClient({ mode: 'anvil', transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0 }).extend(publicActions).extend(walletActions);

// --- JSON-RPC -----------------------------------------------------------------------------------------------------

/** What java-tron registers (TronJsonRpc.java's @JsonRpcMethod, and eth_getBlockReceipts of its newer releases). */
const TRON_METHODS = new Set(
  (
    'web3_clientVersion web3_sha3 eth_getBlockTransactionCountByHash eth_getBlockTransactionCountByNumber eth_getBlockByHash ' +
    'eth_getBlockByNumber net_version eth_chainId net_listening eth_protocolVersion eth_blockNumber eth_getBalance eth_getStorageAt ' +
    'eth_getCode eth_coinbase eth_gasPrice eth_estimateGas eth_getTransactionByHash eth_getTransactionByBlockHashAndIndex ' +
    'eth_getTransactionByBlockNumberAndIndex eth_getTransactionReceipt eth_getBlockReceipts eth_call net_peerCount eth_syncing ' +
    'eth_getUncleByBlockHashAndIndex eth_getUncleByBlockNumberAndIndex eth_getUncleCountByBlockHash eth_getUncleCountByBlockNumber ' +
    'eth_getWork eth_hashrate eth_mining eth_accounts buildTransaction eth_newFilter eth_newBlockFilter eth_uninstallFilter ' +
    'eth_getFilterChanges eth_getLogs eth_getFilterLogs'
  ).split(' '),
);
/** Registered, and always refused with JsonRpcMethodNotFoundException (TronJsonRpcImpl.java). */
const REFUSED_METHODS = new Set(
  'eth_submitWork eth_sendRawTransaction eth_sendTransaction eth_sign eth_signTransaction parity_nextNonce eth_getTransactionCount eth_getCompilers eth_compileSolidity eth_compileLLL eth_compileSerpent eth_submitHashrate'.split(
    ' ',
  ),
);
/** Methods whose first parameter is a block number or tag, resolved as Wallet.getByJsonBlockId does. */
const BLOCK_QUERIES = new Set(['eth_getBlockByNumber', 'eth_getBlockTransactionCountByNumber', 'eth_getTransactionByBlockNumberAndIndex', 'eth_getBlockReceipts']);
/** State methods and the index of their block parameter: only `latest` is taken. */
const STATE_QUERIES: Record<string, number> = { eth_getBalance: 1, eth_getCode: 1, eth_getStorageAt: 2, eth_call: 1 };

const ZERO_BLOOM = `0x${'00'.repeat(256)}`;
// java-tron's own rate limiter (RateLimiterServlet, Util.printErrorMsg), written with println.
const RATE_LIMITED = `${JSON.stringify({ Error: 'class java.lang.IllegalAccessException : lack of computing resources' })}\n`;
const LITE_NODE_REFUSAL = 'this API is closed because this node is a lite fullnode';

/** A JSON-RPC error as java-tron's annotations give it: `data` is the string "{}". */
class TronRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: string | null = '{}',
  ) {
    super(message);
  }
}
const invalidParams = (message: string) => new TronRpcError(-32602, message);

const hex = (n: bigint) => `0x${n.toString(16)}`;

type RpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };

// --- the HTTP API's protobuf ---------------------------------------------------------------------------------------

type Field = { field: number; value: bigint | Uint8Array };

/** The fields of a protobuf message (varints and length-delimited only: all a TRC-20 transfer's raw_data holds). */
function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated varint');
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const wire = Number(key & 7n);
    const field = Number(key >> 3n);
    if (wire === 0) out.push({ field, value: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ field, value: bytes.subarray(at, at + length) });
      at += length;
    } else if (wire === 5) at += 4;
    else if (wire === 1) at += 8;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}
const bytesOf = (list: Field[], field: number) => list.find((f) => f.field === field)?.value as Uint8Array | undefined;
const numberOf = (list: Field[], field: number) => (list.find((f) => f.field === field)?.value as bigint | undefined) ?? 0n;
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

interface DecodedTransaction {
  txid: string;
  rawDataHex: string;
  signatures: string[];
  refBlockBytes: string;
  refBlockHash: string;
  expiration: bigint;
  feeLimit: bigint;
  /** The TriggerSmartContract of a contract call: 20-byte owner and contract, call data. */
  trigger?: { owner: Address; contract: Address; data: Hex };
}

function decodeTransaction(hexText: string): DecodedTransaction {
  const transaction = fields(Buffer.from(hexText.replace(/^0x/, ''), 'hex'));
  const raw = bytesOf(transaction, 1) ?? new Uint8Array();
  const rawData = fields(raw);
  const contract = bytesOf(rawData, 11);
  let trigger: DecodedTransaction['trigger'];
  if (contract) {
    const parameter = fields(bytesOf(fields(contract), 2) ?? new Uint8Array());
    const value = fields(bytesOf(parameter, 2) ?? new Uint8Array());
    const owner = bytesOf(value, 1);
    const to = bytesOf(value, 2);
    if (owner && to) trigger = { owner: `0x${toHex(owner.subarray(1))}`, contract: `0x${toHex(to.subarray(1))}`, data: `0x${toHex(bytesOf(value, 4) ?? new Uint8Array())}` };
  }
  return {
    txid: createHash('sha256').update(raw).digest('hex'),
    rawDataHex: toHex(raw),
    signatures: transaction.filter((f) => f.field === 2).map((f) => toHex(f.value as Uint8Array)),
    refBlockBytes: toHex(bytesOf(rawData, 1) ?? new Uint8Array()),
    refBlockHash: toHex(bytesOf(rawData, 4) ?? new Uint8Array()),
    expiration: numberOf(rawData, 8),
    feeLimit: numberOf(rawData, 18),
    trigger,
  };
}

/** `message` of each broadcast code, as Wallet.broadcastTransaction words it (UTF-8 in broadcasthex's answer). */
function broadcastMessage(code: BroadcastCode, tx: DecodedTransaction, size: number): string {
  switch (code) {
    case 'SUCCESS':
      return '';
    case 'SIGERROR':
      return 'Validate signature error: sig error';
    case 'CONTRACT_VALIDATE_ERROR':
      return 'Contract validate error : No contract!';
    case 'CONTRACT_EXE_ERROR':
      return 'Contract execute error : REVERT opcode executed';
    case 'BANDWITH_ERROR':
      return 'Account resource insufficient error.';
    case 'DUP_TRANSACTION_ERROR':
      return 'Dup transaction.';
    case 'TAPOS_ERROR':
      return 'Tapos check error.';
    case 'TOO_BIG_TRANSACTION_ERROR':
      return `Too big transaction, TxId ${tx.txid}, the size is ${size} bytes, maxTxSize 512000`;
    case 'TRANSACTION_EXPIRATION_ERROR':
      return 'Transaction expired';
    case 'SERVER_BUSY':
      return 'Server busy.';
    case 'NO_CONNECTION':
      return 'No connection.';
    case 'NOT_ENOUGH_EFFECTIVE_CONNECTION':
      return 'P2P broadcast failed.';
    case 'BLOCK_UNSOLIDIFIED':
      return 'Block unsolidified.';
    case 'OTHER_ERROR':
      return 'Error: null';
  }
}

/** The history queries a lite full node closes (LiteFnQueryHttpFilter.java) that the stand-in serves. */
const LITE_CLOSED = new Set(['/wallet/gettransactioninfobyid', '/walletsolidity/gettransactioninfobyid', '/wallet/gettransactionbyid', '/walletsolidity/gettransactionbyid']);

// Nile prices energy at 210 sun (getenergyprices); a fee_limit buys fee_limit / 210 units, the stand-in's gas.
const SUN_PER_ENERGY = 210n;

export async function startTronNode(options: TronNodeOptions = {}): Promise<TronNode> {
  const depth = BigInt(options.solidificationDepth ?? SOLIDIFICATION_DEPTH);
  const maxBlockRange = BigInt(options.maxBlockRange ?? MAX_BLOCK_RANGE);
  const anvil = await startAnvil({ mining: 'manual', chainId: NILE_CHAIN_ID });
  const client = testClient(anvil.rpcUrl);
  const [deployer, customer, other] = (await client.getAddresses()) as [Address, Address, Address];
  const token = await deployContract(anvil.rpcUrl, deployer, Trc20TestToken, ['Tether USD (test)', 'USDT', 6], { mine: true });
  await client.writeContract({ account: customer, chain: null, address: token, abi: Trc20TestToken.abi, functionName: 'mint', args: [customer, 10n ** 30n] });
  await client.mine({ blocks: 1 });
  const startingBlock = await client.getBlockNumber();

  const calls: TronCall[] = [];
  const dropping = new Map<string, number>();
  const withheld: string[] = [];
  let throttled: Throttle | undefined;
  let held: bigint | undefined;
  let lite = false;
  const infos = new Map<string, TransactionInfo>();
  const resources = new Map<string, Record<string, unknown>>();
  const broadcasts: Broadcast[] = [];
  let failing: BroadcastCode[] = [];
  // A broadcast that anvil runs is its own transaction there, under another hash: both APIs answer it by its TRON txid.
  const anvilHashes = new Map<string, Hex>();
  const txids = new Map<string, string>();

  const anvilCall = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const response = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: string } };
    if (body.error) throw new TronRpcError(-32000, body.error.message, body.error.data ?? null);
    return body.result;
  };
  const anvilHead = async () => BigInt((await anvilCall('eth_blockNumber')) as string);
  const head = async () => held ?? (await anvilHead());
  const solidified = async () => {
    const h = await head();
    return h > depth ? h - depth : 0n;
  };
  const visible = (number: unknown) => held === undefined || (typeof number === 'string' && BigInt(number) <= held);

  /** A block parameter of a block query, as a number anvil takes; pending and safe are refused. */
  const blockNumber = async (tag: unknown): Promise<bigint> => {
    if (tag === 'pending') throw invalidParams('TAG pending not supported');
    if (tag === 'safe') throw invalidParams('TAG safe not supported');
    if (tag === 'latest') return head();
    if (tag === 'earliest') return 0n;
    if (tag === 'finalized') return solidified();
    if (typeof tag !== 'string' || !/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(tag)) throw invalidParams('invalid block number');
    return BigInt(tag);
  };

  /** A fromBlock / toBlock of a log filter (JsonRpcApiUtil.getByJsonBlockId): -1 for latest. */
  const filterBlock = async (tag: unknown): Promise<bigint> => {
    if (tag === 'pending') throw invalidParams('TAG pending not supported');
    if (tag === 'safe') throw invalidParams('TAG safe not supported');
    if (tag === undefined || tag === null || tag === '' || tag === 'latest') return -1n;
    if (tag === 'earliest') return 0n;
    if (tag === 'finalized') return solidified();
    if (typeof tag !== 'string' || !tag.startsWith('0x')) throw invalidParams('Incorrect hex syntax');
    return BigInt(tag);
  };

  const tronBlock = (block: Record<string, unknown> | null) => (block && visible(block.number) ? { ...block, logsBloom: ZERO_BLOOM } : null);
  const tronReceipt = (receipt: Record<string, unknown> | null) => (receipt && visible(receipt.blockNumber) ? { ...receipt, logsBloom: ZERO_BLOOM } : null);

  async function answer(method: string, params: unknown[]): Promise<unknown> {
    if (REFUSED_METHODS.has(method)) throw new TronRpcError(-32601, `the method ${method} does not exist/is not available`);
    // jsonrpc4j's own answer for a method nobody registered (debug_, trace_, anvil_, evm_, …): no data.
    if (!TRON_METHODS.has(method)) throw new TronRpcError(-32601, 'method not found', null);
    if (BLOCK_QUERIES.has(method)) {
      const number = await blockNumber(params[0]);
      if (number > (await head())) return null;
      const result = await anvilCall(method, [hex(number), ...params.slice(1)]);
      if (method === 'eth_getBlockByNumber') return tronBlock(result as Record<string, unknown> | null);
      if (method === 'eth_getBlockReceipts') return (result as Record<string, unknown>[] | null)?.map(tronReceipt) ?? null;
      return result;
    }
    if (method in STATE_QUERIES) {
      const at = STATE_QUERIES[method]!;
      const tag = params[at] ?? 'latest';
      if (typeof tag === 'string' && tag !== 'latest') {
        if (['earliest', 'pending', 'finalized', 'safe'].includes(tag)) throw invalidParams('TAG [earliest | pending | finalized | safe] not supported');
        if (/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(tag)) throw invalidParams('QUANTITY not supported, just support TAG as latest');
        throw invalidParams('invalid block number');
      }
      const answered = await anvilCall(method, [...params.slice(0, at), 'latest']).catch(inTronWords);
      // java-tron answers TRX in sun: 1 ETH on anvil (10^18 wei) is 1 TRX (10^6 sun) here.
      return method === 'eth_getBalance' ? hex(BigInt(answered as string) / 10n ** 12n) : answered;
    }
    switch (method) {
      case 'eth_blockNumber':
        return hex(await head());
      case 'eth_syncing': {
        // Whenever it has peers, java-tron answers an object, its highest block extrapolated from the head's age.
        const current = await head();
        const block = (await anvilCall('eth_getBlockByNumber', [hex(current), false])) as { timestamp: string };
        const behind = (BigInt(Date.now()) - BigInt(block.timestamp) * 1000n) / 3000n;
        return { startingBlock: hex(startingBlock), currentBlock: hex(current), highestBlock: hex(current + (behind > 0n ? behind : 0n)) };
      }
      case 'eth_getBlockByHash':
        return tronBlock((await anvilCall(method, params)) as Record<string, unknown> | null);
      case 'eth_getTransactionReceipt':
        return tronReceipt((await anvilCall(method, params)) as Record<string, unknown> | null);
      case 'eth_getTransactionByHash': {
        const tx = (await anvilCall(method, params)) as { blockNumber: string | null } | null;
        return tx && tx.blockNumber !== null && visible(tx.blockNumber) ? tx : null;
      }
      case 'eth_estimateGas':
        return anvilCall(method, params.slice(0, 1)).catch(inTronWords);
      case 'eth_gasPrice':
        return hex(SUN_PER_ENERGY);
      case 'eth_getLogs':
        return withholding((await logs(params[0] as Record<string, unknown> | undefined)) as { transactionHash: string }[]);
      case 'eth_newFilter': {
        const filter = (params[0] ?? {}) as Record<string, unknown>;
        if (filter.fromBlock === 'finalized' || filter.toBlock === 'finalized') throw invalidParams('invalid block range params');
        await filterBlock(filter.fromBlock);
        await filterBlock(filter.toBlock);
        return anvilCall(method, params);
      }
      case 'buildTransaction':
        throw new TronRpcError(-32000, 'buildTransaction is not stood in for: the gateway builds its own transactions');
      case 'net_listening':
        return true;
      case 'net_peerCount':
        return '0x1e';
      case 'web3_clientVersion':
        return 'TRON/v4.8.0/Linux/Java1.8';
      default:
        return anvilCall(method, params);
    }
  }

  /** eth_getLogs as LogFilterWrapper bounds it: a block hash, or a range of at most maxBlockRange past its start. */
  async function logs(filter: Record<string, unknown> = {}): Promise<unknown> {
    const current = await head();
    const { fromBlock, toBlock, blockHash, ...rest } = filter;
    if (blockHash !== undefined && blockHash !== null) {
      if (fromBlock !== undefined || toBlock !== undefined) throw invalidParams('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
      const block = (await anvilCall('eth_getBlockByHash', [blockHash, false])) as { number: string } | null;
      if (!block || !visible(block.number)) throw invalidParams('invalid blockHash');
      return anvilCall('eth_getLogs', [{ ...rest, blockHash }]);
    }
    let from = await filterBlock(fromBlock);
    let to = await filterBlock(toBlock);
    if (from === -1n) from = current;
    if (to === -1n) to = BigInt(Number.MAX_SAFE_INTEGER);
    if (from > to) throw invalidParams('please verify: fromBlock <= toBlock');
    const last = to < current ? to : current;
    if (last - from > maxBlockRange) throw invalidParams(`exceed max block range: ${maxBlockRange}`);
    if (from > last) return [];
    return anvilCall('eth_getLogs', [{ ...rest, fromBlock: hex(from), toBlock: hex(last) }]);
  }

  /** The logs less those of the transactions dropLogs names, as many answers as it said. */
  function withholding(answered: { transactionHash: string }[]): { transactionHash: string }[] {
    const left = new Set<string>();
    const kept = answered.filter((l) => {
      const tx = String(tronHashes(l.transactionHash)).toLowerCase();
      if (!dropping.has(tx)) return true;
      left.add(tx);
      return false;
    });
    for (const tx of left) {
      const times = dropping.get(tx)! - 1;
      if (times > 0) dropping.set(tx, times);
      else dropping.delete(tx);
      withheld.push(tx);
    }
    return kept;
  }

  /** An answer with each broadcast's anvil hash replaced by its TRON txid (in blocks, transactions, receipts, logs). */
  function tronHashes(value: unknown): unknown {
    if (typeof value === 'string') return txids.get(value) ?? value;
    if (Array.isArray(value)) return value.map(tronHashes);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tronHashes(v)]));
    return value;
  }

  async function rpc(request: RpcRequest, apiKey: string | undefined): Promise<Record<string, unknown>> {
    const id = request.id ?? null;
    const method = typeof request.method === 'string' ? request.method : '';
    const params = Array.isArray(request.params) ? request.params : [];
    const call: TronCall = { path: '/jsonrpc', method, params, apiKey };
    calls.push(call);
    try {
      const asked = method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash' ? [anvilHashes.get(String(params[0]).replace(/^0x/, '')) ?? params[0], ...params.slice(1)] : params;
      return { jsonrpc: '2.0', id, result: tronHashes(await answer(method, asked)) };
    } catch (error) {
      const refusal = error instanceof TronRpcError ? error : new TronRpcError(-32000, error instanceof Error ? error.message : String(error));
      call.error = { code: refusal.code, message: refusal.message };
      return { jsonrpc: '2.0', id, error: { code: refusal.code, message: refusal.message, ...(refusal.data !== null && { data: refusal.data }) } };
    }
  }

  // --- the HTTP API ---------------------------------------------------------------------------------------------

  /** A block as /wallet/getnowblock prints protocol.Block (visible=false), from anvil's. */
  async function nowBlock(solid: boolean): Promise<Record<string, unknown>> {
    const number = solid ? await solidified() : await head();
    const block = (await anvilCall('eth_getBlockByNumber', [hex(number), false])) as { hash: string; parentHash: string; timestamp: string; miner: string; transactionsRoot: string };
    return {
      blockID: block.hash.slice(2),
      block_header: {
        raw_data: {
          number: Number(number),
          txTrieRoot: block.transactionsRoot.slice(2),
          witness_address: `41${block.miner.slice(2)}`,
          parentHash: block.parentHash.slice(2),
          version: 34,
          timestamp: Number(BigInt(block.timestamp) * 1000n),
        },
        witness_signature: '00'.repeat(65),
      },
    };
  }

  /** A transaction info from anvil's receipt of the transaction, as java-tron would record it; undefined when none. */
  async function infoFromChain(txid: string, solid: boolean): Promise<TransactionInfo | undefined> {
    const hash = anvilHashes.get(txid) ?? (`0x${txid}` as Hex);
    const receipt = (await anvilCall('eth_getTransactionReceipt', [hash]).catch(() => null)) as {
      status: string;
      blockNumber: string;
      blockHash: string;
      gasUsed: string;
      to: string | null;
      logs: { address: string; topics: string[]; data: string }[];
    } | null;
    if (!receipt || !visible(receipt.blockNumber) || (solid && BigInt(receipt.blockNumber) > (await solidified()))) return undefined;
    const [block, tx] = (await Promise.all([anvilCall('eth_getBlockByHash', [receipt.blockHash, false]), anvilCall('eth_getTransactionByHash', [hash])])) as [{ timestamp: string }, { gas: string }];
    const energy = Number(BigInt(receipt.gasUsed));
    const info: TransactionInfo = {
      id: txid,
      fee: energy * Number(SUN_PER_ENERGY),
      blockNumber: Number(BigInt(receipt.blockNumber)),
      blockTimeStamp: Number(BigInt(block.timestamp) * 1000n),
      contractResult: [''],
      ...(receipt.to && { contract_address: `41${receipt.to.slice(2)}` }),
    };
    if (receipt.status === '0x1') {
      // The HTTP API prints log addresses as 20 bytes and hex without 0x.
      return transactionInfo.success(info, energy, receipt.logs.map((l) => ({ address: l.address.slice(2), topics: l.topics.map((t) => t.slice(2)), data: l.data.slice(2) })));
    }
    // All the energy a fee_limit bought, spent: out of energy; less: the contract reverted.
    return receipt.gasUsed === tx.gas ? transactionInfo.outOfEnergy(info, energy) : transactionInfo.revert(info, energy);
  }

  async function broadcastHex(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const text = typeof body.transaction === 'string' ? body.transaction : '';
    const tx = decodeTransaction(text);
    const code = failing.shift() ?? (await checkBroadcast(tx));
    broadcasts.push({ transaction: text, txid: tx.txid, code });
    if (code === 'SUCCESS' && tx.trigger) {
      await anvilCall('anvil_impersonateAccount', [tx.trigger.owner]);
      const gas = tx.feeLimit > 0n ? tx.feeLimit / SUN_PER_ENERGY : 100_000n;
      const hash = (await anvilCall('eth_sendTransaction', [{ from: tx.trigger.owner, to: tx.trigger.contract, data: tx.trigger.data, gas: hex(gas) }])) as Hex;
      anvilHashes.set(tx.txid, hash);
      txids.set(hash, `0x${tx.txid}`);
    }
    return {
      result: code === 'SUCCESS',
      code,
      message: broadcastMessage(code, tx, text.length / 2),
      transaction: JSON.stringify({ visible: true, txID: tx.txid, raw_data_hex: tx.rawDataHex, signature: tx.signatures }),
      txid: tx.txid,
    };
  }

  /** What java-tron checks of a transaction before it pools it, in its order: signature, TaPoS, expiry, duplicate. */
  async function checkBroadcast(tx: DecodedTransaction): Promise<BroadcastCode> {
    if (!tx.trigger) return 'CONTRACT_VALIDATE_ERROR';
    const signature = tx.signatures[0];
    const signer = signature?.length === 130 ? await recoverAddress({ hash: `0x${tx.txid}`, signature: `0x${signature}` }).catch(() => undefined) : undefined;
    if (!signer || signer.toLowerCase() !== tx.trigger.owner.toLowerCase()) return 'SIGERROR';
    // ref_block_bytes: bytes 6..8 of the block number; ref_block_hash: bytes 8..16 of its id (the stand-in's: anvil's hash).
    const refNumber = BigInt(`0x${tx.refBlockBytes || '0'}`);
    const current = await head();
    const candidate = (current & ~0xffffn) | refNumber;
    const number = candidate > current ? candidate - 0x10000n : candidate;
    const block = number >= 0n ? ((await anvilCall('eth_getBlockByNumber', [hex(number), false])) as { hash: string } | null) : null;
    if (!block || block.hash.slice(2 + 16, 2 + 32) !== tx.refBlockHash) return 'TAPOS_ERROR';
    const headBlock = (await anvilCall('eth_getBlockByNumber', [hex(current), false])) as { timestamp: string };
    const headTime = BigInt(headBlock.timestamp) * 1000n;
    // Manager.validateCommon: expired, or more than a day ahead (MAXIMUM_TIME_UNTIL_EXPIRATION).
    if (tx.expiration <= headTime || tx.expiration > headTime + 86_400_000n) return 'TRANSACTION_EXPIRATION_ERROR';
    if (broadcasts.some((b) => b.txid === tx.txid && b.code === 'SUCCESS')) return 'DUP_TRANSACTION_ERROR';
    return 'SUCCESS';
  }

  async function wallet(path: string, body: Record<string, unknown>, query: URLSearchParams): Promise<string | undefined> {
    if (lite && LITE_CLOSED.has(path)) return LITE_NODE_REFUSAL;
    const solid = path.startsWith('/walletsolidity/');
    switch (path.replace(/^\/wallet(solidity)?\//, '')) {
      case 'getnowblock':
        return JSON.stringify(await nowBlock(solid));
      case 'gettransactioninfobyid': {
        const txid = String(body.value ?? query.get('value') ?? '').replace(/^0x/, '');
        const info = infos.get(txid) ?? (await infoFromChain(txid, solid));
        return JSON.stringify(info ?? {});
      }
      case 'broadcasthex':
        return JSON.stringify(await broadcastHex(body));
      case 'getaccountresource':
        return JSON.stringify(resources.get(String(body.address ?? query.get('address') ?? '')) ?? {});
      default:
        return undefined;
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const apiKey = req.headers['tron-pro-api-key'] as string | undefined;
      const text = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (throttled !== undefined) {
        calls.push({ path: url.pathname, apiKey, throttled, ...(url.pathname === '/jsonrpc' && { method: methodOf(text) }) });
        if (throttled === 'error-body') return send(200, 'application/json; charset=utf-8', RATE_LIMITED);
        if (throttled === 'not-json-rpc') return send(200, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
        return send(throttled, 'text/plain', `${throttled}`);
      }
      void (async () => {
        if (url.pathname === '/jsonrpc') {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            calls.push({ path: url.pathname, apiKey, error: { code: -32700, message: 'JSON parse error' } });
            return send(200, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'JSON parse error' } }));
          }
          const answers = Array.isArray(parsed) ? await Promise.all(parsed.map((r) => rpc(r as RpcRequest, apiKey))) : await rpc(parsed as RpcRequest, apiKey);
          return send(200, 'application/json', JSON.stringify(answers));
        }
        calls.push({ path: url.pathname, apiKey });
        let body: Record<string, unknown>;
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch (error) {
          return send(200, 'application/json; charset=utf-8', `${JSON.stringify({ Error: `class org.tron.json.JSONException : ${(error as Error).message}` })}\n`);
        }
        const answer = await wallet(url.pathname, body, url.searchParams);
        if (answer === undefined) return send(404, 'text/plain', `no stand-in for ${url.pathname}`);
        // The servlets println their JSON; the lite node's filter writes its refusal bare.
        send(200, 'application/json; charset=utf-8', answer === LITE_NODE_REFUSAL ? answer : `${answer}\n`);
      })().catch((error: unknown) => send(200, 'application/json; charset=utf-8', `${JSON.stringify({ Error: `class java.lang.Exception : ${(error as Error).message}` })}\n`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    rpcUrl: `${url}/jsonrpc`,
    anvil,
    client,
    token,
    customer,
    other,
    calls,
    throttle(mode) {
      throttled = mode;
    },
    async lag(height) {
      held = height ?? (await anvilHead());
    },
    catchUp() {
      held = undefined;
    },
    dropLogs(txHash, times = 1) {
      dropping.set(`0x${txHash.replace(/^0x/, '').toLowerCase()}`, times);
    },
    withheld,
    api: {
      setTransactionInfo: (txid, info) => void infos.set(txid.replace(/^0x/, ''), info),
      failBroadcasts(codes) {
        failing = [...codes];
      },
      broadcasts,
      setAccountResource: (address, resource) => void resources.set(address, resource),
      liteNode(on) {
        lite = on;
      },
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await anvil.stop();
    },
  };
}

/** A revert of eth_call or eth_estimateGas as java-tron words it: its runtime error, the reason, the revert data. */
function inTronWords(error: unknown): never {
  if (error instanceof TronRpcError && error.message.startsWith('execution reverted')) {
    // The reason only for Error(string) (selector 08c379a0), as TronJsonRpcImpl.call parses it; a panic has none.
    const reason = error.data?.startsWith('0x08c379a0') ? error.message.slice('execution reverted'.length) : '';
    throw new TronRpcError(-32000, `REVERT opcode executed${reason}`, error.data ?? '0x');
  }
  throw error;
}

function methodOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { method?: string } | { method?: string }[];
    return Array.isArray(parsed) ? parsed.map((r) => r.method).join(',') : parsed.method;
  } catch {
    return undefined;
  }
}

const hexText = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/** Transaction infos in the documented shapes (a failed call: result FAILED, resMessage hex, no log). */
export const transactionInfo = {
  success: (info: TransactionInfo, energy: number, log: { address: string; topics: string[]; data: string }[]): TransactionInfo => ({
    ...info,
    receipt: { energy_fee: energy * Number(SUN_PER_ENERGY), energy_usage_total: energy, net_usage: 345, result: 'SUCCESS' },
    ...(log.length > 0 && { log }),
  }),
  revert: (info: TransactionInfo, energy: number): TransactionInfo => ({
    ...info,
    receipt: { energy_usage_total: energy, net_usage: 345, result: 'REVERT' },
    result: 'FAILED',
    resMessage: hexText('REVERT opcode executed'),
  }),
  outOfEnergy: (info: TransactionInfo, energy: number): TransactionInfo => ({
    ...info,
    receipt: { energy_fee: energy * Number(SUN_PER_ENERGY), energy_usage_total: energy, net_usage: 345, result: 'OUT_OF_ENERGY' },
    result: 'FAILED',
    resMessage: hexText(`Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${energy}], curOpEnergy[20000], usedEnergy[${energy - 1}]`),
  }),
};

/** A gateway's TRON settings for this node (tests read TRON_API_KEY back from `calls`), with `env` over them. */
export const tronEnv = (node: TronNode, env: Record<string, string> = {}) => ({
  TRON_RPC_URL: node.rpcUrl,
  TRON_USDT_CONTRACT: tronAddressFromHex(node.token),
  TRON_API_KEY: 'the-key',
  TRON_POLL_MS: '150',
  TRON_TIMEOUT_MS: '1000',
  ...env,
});

/**
 * A stand-in node and a gateway that watches TRON on it (tronEnv, with `env` over it), for the suite this is called in:
 * the gateway closes before the node stops. `payouts`: `mine` follows the payouts too.
 */
export function useGatewayOnTron(options: FixtureOptions & { env?: Record<string, string>; payouts?: boolean } = {}) {
  let started: TronNode | undefined;
  before(async () => {
    started = await startTronNode();
  });
  const node = ready('the TRON node', () => started);
  const { env, payouts, ...gateway } = options;
  const gw = useTestGateway(() => ({ ...gateway, config: { networks: networksFrom(tronEnv(node, env)), ...gateway.config } }));
  after(() => started?.stop());
  /** Blocks on the node; the gateway follows them (then its payouts, with `payouts`). */
  async function mine(blocks = 1) {
    await node.client.mine({ blocks });
    await gw.gateway.watcher.follow('TRON');
    if (payouts) await gw.gateway.payouts.follow();
  }
  return { node, gw, mine };
}
