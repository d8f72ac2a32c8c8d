// The TRON stand-in (test/helpers/tron-node.ts) answers each point of DESIGN.md 9.1 as java-tron and TronGrid do:
// asked over plain HTTP, as the watcher will ask it, and compared with what anvil behind it says where they differ.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, encodeErrorResult, encodeFunctionData, http, keccak256, toBytes, type Address, type Hex } from 'viem';
import { sign } from 'viem/accounts';
import { Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { receiptOf } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { MAX_BLOCK_RANGE, NILE_CHAIN_ID, startTronNode, type TronNode } from '../helpers/tron-node.js';

let node: TronNode;

type RpcAnswer = { jsonrpc: string; id: number; result?: unknown; error?: { code: number; message: string; data?: string } };

async function rpc(method: string, params: unknown[] = [], url = node.rpcUrl): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'TRON-PRO-API-KEY': 'test-key' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  assert.equal(response.status, 200, method);
  return (await response.json()) as RpcAnswer;
}
const result = async <T>(method: string, params: unknown[] = []) => {
  const answer = await rpc(method, params);
  assert.equal(answer.error, undefined, `${method}: ${JSON.stringify(answer.error)}`);
  return answer.result as T;
};
const refusal = async (method: string, params: unknown[] = []) => (await rpc(method, params)).error;
const invalid = (message: string) => ({ code: -32602, message, data: '{}' });

async function api(path: string, body: unknown = {}): Promise<{ text: string; json: () => Record<string, unknown> }> {
  const response = await fetch(`${node.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, path);
  const text = await response.text();
  return { text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: Trc20TestToken.abi, functionName: 'transfer', args: [to, amount] });
const balanceOf = (owner: Address) => node.client.readContract({ address: node.token, abi: Trc20TestToken.abi, functionName: 'balanceOf', args: [owner] });
const send = async (data: Hex, from = node.customer, gas?: bigint) => node.client.sendTransaction({ account: from, chain: null, to: node.token, data, gas });

describe('the TRON stand-in', () => {
  let transferHash: Hex;
  let transferBlock: bigint;

  before(async () => {
    // A range of 20 blocks stands for java-tron's 5,000, which anvil would take 20 s to mine past.
    node = await startTronNode({ maxBlockRange: 20 });
    transferHash = await send(transfer(node.other, 1_000_000n));
    transferBlock = (await receiptOf(node.anvil.rpcUrl, transferHash, { mine: true })).blockNumber;
  });

  after(() => node.stop());

  it('answers Nile’s chain id and 20-byte 0x hex addresses in blocks, transactions, receipts and logs', async () => {
    assert.equal(await result('eth_chainId'), `0x${NILE_CHAIN_ID.toString(16)}`);
    const address = /^0x[0-9a-f]{40}$/;
    const receipt = await result<{ from: string; to: string; logs: { address: string; topics: string[] }[] }>('eth_getTransactionReceipt', [transferHash]);
    assert.match(receipt.from, address);
    assert.match(receipt.to, address);
    assert.equal(receipt.logs[0]?.address, node.token.toLowerCase());
    const tx = await result<{ from: string; to: string }>('eth_getTransactionByHash', [transferHash]);
    assert.deepEqual([tx.from, tx.to], [node.customer.toLowerCase(), node.token.toLowerCase()]);
    const block = await result<{ miner: string }>('eth_getBlockByNumber', [`0x${transferBlock.toString(16)}`, false]);
    assert.match(block.miner, address);
  });

  it('carries a token that behaves as USDT-TRC20: transfer answers false yet moves and logs, a blacklisted sender reverts', async () => {
    const call = { from: node.customer, to: node.token, data: transfer(node.other, 1n) };
    assert.equal(await result('eth_call', [call, 'latest']), `0x${'00'.repeat(32)}`, 'TetherToken returns no true');
    const receipt = await result<{ status: string; logs: { topics: string[] }[] }>('eth_getTransactionReceipt', [transferHash]);
    assert.equal(receipt.status, '0x1');
    assert.equal(receipt.logs[0]?.topics[0], keccak256(toBytes('Transfer(address,address,uint256)')));
    await receiptOf(node.anvil.rpcUrl, await node.client.writeContract({ account: node.other, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'addBlackList', args: [node.customer] }), { mine: true });
    try {
      const hash = await send(transfer(node.other, 1n), node.customer, 100_000n);
      await node.client.mine({ blocks: 1 });
      const blocked = await result<{ status: string; logs: unknown[] }>('eth_getTransactionReceipt', [hash]);
      assert.deepEqual([blocked.status, blocked.logs], ['0x0', []]);
    } finally {
      await receiptOf(node.anvil.rpcUrl, await node.client.writeContract({ account: node.other, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'removeBlackList', args: [node.customer] }), { mine: true });
    }
  });

  it('answers eth_syncing with an object whenever it runs (anvil says false), its highest block the head or above', async () => {
    assert.equal(await node.client.request({ method: 'eth_syncing' } as never), false, 'anvil itself');
    const head = await result<string>('eth_blockNumber');
    const syncing = await result<{ startingBlock: string; currentBlock: string; highestBlock: string }>('eth_syncing');
    assert.equal(syncing.currentBlock, head);
    assert.ok(BigInt(syncing.highestBlock) >= BigInt(head));
  });

  it('zeroes logsBloom in blocks and receipts, where anvil’s bloom has the Transfer in it', async () => {
    const zero = `0x${'00'.repeat(256)}`;
    const anvilBlock = await node.client.getBlock({ blockNumber: transferBlock });
    assert.notEqual(anvilBlock.logsBloom, zero, 'anvil blooms the Transfer');
    const byNumber = await result<{ hash: string; logsBloom: string }>('eth_getBlockByNumber', [`0x${transferBlock.toString(16)}`, true]);
    const byHash = await result<{ logsBloom: string }>('eth_getBlockByHash', [byNumber.hash, false]);
    const receipt = await result<{ logsBloom: string }>('eth_getTransactionReceipt', [transferHash]);
    const receipts = await result<{ logsBloom: string }[]>('eth_getBlockReceipts', [`0x${transferBlock.toString(16)}`]);
    assert.deepEqual([byNumber.logsBloom, byHash.logsBloom, receipt.logsBloom, ...receipts.map((r) => r.logsBloom)], [zero, zero, zero, zero]);
  });

  it('refuses the pending and safe tags as java-tron words it; finalized is the head less 19 blocks', async () => {
    await node.client.mine({ blocks: 25 });
    assert.deepEqual(await refusal('eth_getBlockByNumber', ['pending', false]), invalid('TAG pending not supported'));
    assert.deepEqual(await refusal('eth_getBlockByNumber', ['safe', false]), invalid('TAG safe not supported'));
    assert.deepEqual(await refusal('eth_getLogs', [{ fromBlock: 'pending' }]), invalid('TAG pending not supported'));
    assert.deepEqual(await refusal('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'safe' }]), invalid('TAG safe not supported'));
    assert.deepEqual(await refusal('eth_getBlockByNumber', ['soon', false]), invalid('invalid block number'));
    const viemClient = createPublicClient({ transport: http(node.rpcUrl, { retryCount: 0 }) });
    await assert.rejects(viemClient.getBlock({ blockTag: 'safe' }), /TAG safe not supported/);
    const head = BigInt(await result<string>('eth_blockNumber'));
    const finalized = await result<{ number: string }>('eth_getBlockByNumber', ['finalized', false]);
    assert.equal(BigInt(finalized.number), head - 19n);
    assert.equal((await viemClient.getBlock({ blockTag: 'finalized' })).number, head - 19n);
    const solid = (await api('/walletsolidity/getnowblock')).json() as { block_header: { raw_data: { number: number } } };
    assert.equal(solid.block_header.raw_data.number, Number(head - 19n), 'the solidity API agrees');
  });

  it('takes only latest for state queries: a tag or a height is refused', async () => {
    const call = { to: node.token, data: encodeFunctionData({ abi: Trc20TestToken.abi, functionName: 'balanceOf', args: [node.other] }) };
    assert.equal(BigInt(await result<string>('eth_call', [call, 'latest'])), 1_000_000n);
    const tags = invalid('TAG [earliest | pending | finalized | safe] not supported');
    for (const tag of ['finalized', 'pending', 'safe', 'earliest']) assert.deepEqual(await refusal('eth_call', [call, tag]), tags, tag);
    assert.deepEqual(await refusal('eth_getBalance', [node.customer, '0x5']), invalid('QUANTITY not supported, just support TAG as latest'));
  });

  it('prices energy and counts TRX as Nile does: eth_gasPrice 210 sun, a balance in sun (1 ETH on anvil is 1 TRX), a revert in its words', async () => {
    assert.equal(await result('eth_gasPrice'), '0xd2');
    await node.client.setBalance({ address: node.other, value: 25n * 10n ** 18n });
    assert.equal(BigInt(await result<string>('eth_getBalance', [node.other, 'latest'])), 25_000_000n);
    const tooMuch = { from: node.other, to: node.token, data: transfer(node.customer, 10n ** 40n) };
    assert.deepEqual(await refusal('eth_call', [tooMuch, 'latest']), {
      code: -32000,
      message: 'REVERT opcode executed',
      data: encodeErrorResult({ abi: [{ type: 'error', name: 'Panic', inputs: [{ type: 'uint256' }] }], errorName: 'Panic', args: [0x11n] }),
    });
  });

  it('refuses eth_getLogs over more than maxBlockRange blocks past its start (java-tron’s 5,000), and takes a block hash', async () => {
    assert.equal(MAX_BLOCK_RANGE, 5_000);
    await node.client.mine({ blocks: 30 });
    const head = BigInt(await result<string>('eth_blockNumber'));
    const range = (from: bigint, to: bigint | string) => [{ fromBlock: `0x${from.toString(16)}`, toBlock: typeof to === 'string' ? to : `0x${to.toString(16)}`, address: node.token }];
    assert.deepEqual(await refusal('eth_getLogs', range(head - 21n, head)), invalid('exceed max block range: 20'));
    assert.deepEqual(await refusal('eth_getLogs', range(head - 21n, 'latest')), invalid('exceed max block range: 20'));
    assert.deepEqual(await refusal('eth_getLogs', range(head - 21n, head + 1_000n)), invalid('exceed max block range: 20'), 'counted to the head');
    assert.deepEqual(await result('eth_getLogs', range(head - 20n, head + 1_000n)), []);
    const [log] = await result<{ transactionHash: string }[]>('eth_getLogs', range(transferBlock, transferBlock));
    assert.equal(log?.transactionHash, transferHash);
    const { hash } = await result<{ hash: string }>('eth_getBlockByNumber', [`0x${transferBlock.toString(16)}`, false]);
    assert.equal((await result<unknown[]>('eth_getLogs', [{ blockHash: hash }])).length, 1);
    assert.deepEqual(await refusal('eth_getLogs', range(head, head - 1n)), invalid('please verify: fromBlock <= toBlock'));
  });

  it('refuses eth_sendRawTransaction, eth_getTransactionCount and every debug_/trace_ method, and logs each call with its key', async () => {
    const before = node.calls.length;
    assert.deepEqual(await refusal('eth_sendRawTransaction', ['0x00']), { code: -32601, message: 'the method eth_sendRawTransaction does not exist/is not available', data: '{}' });
    assert.deepEqual(await refusal('eth_getTransactionCount', [node.customer, 'latest']), {
      code: -32601,
      message: 'the method eth_getTransactionCount does not exist/is not available',
      data: '{}',
    });
    for (const method of ['debug_traceTransaction', 'trace_block', 'trace_transaction', 'anvil_mine', 'eth_feeHistory']) {
      assert.deepEqual(await refusal(method, [transferHash]), { code: -32601, message: 'method not found' }, method);
    }
    const logged = node.calls.slice(before);
    assert.deepEqual(
      logged.map((c) => [c.method, c.error?.code, c.apiKey]),
      ['eth_sendRawTransaction', 'eth_getTransactionCount', 'debug_traceTransaction', 'trace_block', 'trace_transaction', 'anvil_mine', 'eth_feeHistory'].map((m) => [m, -32601, 'test-key']),
    );
  });

  it('throttles as providers do until told to stop: 403, 429, 503, a 200 with {"Error": …}, a 200 that is not JSON-RPC', async () => {
    const ask = () => fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }) });
    try {
      for (const status of [403, 429, 503] as const) {
        node.throttle(status);
        assert.equal((await ask()).status, status);
      }
      node.throttle('error-body');
      const limited = await ask();
      assert.equal(limited.status, 200);
      assert.deepEqual(await limited.json(), { Error: 'class java.lang.IllegalAccessException : lack of computing resources' });
      node.throttle('not-json-rpc');
      const page = await ask();
      assert.equal(page.status, 200);
      const text = await page.text();
      assert.throws(() => JSON.parse(text) as unknown);
      assert.equal((await api('/wallet/getnowblock')).text.startsWith('<html>'), true, 'the HTTP API too');
    } finally {
      node.throttle(undefined);
    }
    assert.match(await result<string>('eth_blockNumber'), /^0x[0-9a-f]+$/);
    assert.deepEqual(
      node.calls.filter((c) => c.throttled).map((c) => c.throttled),
      [403, 429, 503, 'error-body', 'not-json-rpc', 'not-json-rpc'],
    );
  });

  it('lags on demand: the head and its timestamp are held, the blocks above it are not there; then it catches up', async () => {
    const held = BigInt(await result<string>('eth_blockNumber'));
    const heldBlock = await node.client.getBlock({ blockNumber: held });
    await node.lag();
    const hash = await send(transfer(node.other, 5n));
    // The next block comes two minutes on: the held head is that much older than the chain's.
    await node.client.setNextBlockTimestamp({ timestamp: heldBlock.timestamp + 120n });
    await receiptOf(node.anvil.rpcUrl, hash, { mine: true });
    try {
      assert.equal(BigInt(await result<string>('eth_blockNumber')), held);
      assert.equal(await result('eth_getBlockByNumber', [`0x${(held + 1n).toString(16)}`, false]), null);
      assert.equal(await result('eth_getTransactionReceipt', [hash]), null);
      assert.deepEqual(await result('eth_getLogs', [{ fromBlock: `0x${held.toString(16)}`, toBlock: 'latest', address: node.token }]), []);
      const latest = await result<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
      assert.deepEqual([BigInt(latest.number), BigInt(latest.timestamp)], [held, heldBlock.timestamp]);
      const now = (await api('/wallet/getnowblock')).json() as { block_header: { raw_data: { number: number } } };
      assert.equal(now.block_header.raw_data.number, Number(held), 'the HTTP API lags too');
    } finally {
      node.catchUp();
    }
    assert.equal(BigInt(await result<string>('eth_blockNumber')), held + 1n);
    assert.notEqual(await result('eth_getTransactionReceipt', [hash]), null);
  });
});

// --- the HTTP API -------------------------------------------------------------------------------------------------

// anvil's second dev account (the customer), whose key is public: TRON transactions from it are signed here.
const CUSTOMER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const varint = (value: bigint) => {
  const out: number[] = [];
  do {
    const low = Number(value & 0x7fn);
    value >>= 7n;
    out.push(value ? low | 0x80 : low);
  } while (value);
  return Buffer.from(out);
};
const field = (no: number, value: Buffer | bigint) =>
  typeof value === 'bigint' ? Buffer.concat([varint(BigInt(no << 3)), varint(value)]) : Buffer.concat([varint(BigInt((no << 3) | 2)), varint(BigInt(value.length)), value]);
const tronAddress = (address: Address) => Buffer.from(`41${address.slice(2)}`, 'hex');

/** A signed TRC-20 transfer as java-tron's protobuf has it (Tron.proto Transaction, TriggerSmartContract). */
async function tronTransfer(options: { to: Address; amount: bigint; feeLimit?: bigint; expiration?: bigint; refHash?: string; key?: Hex }): Promise<{ hex: string; txid: string }> {
  const now = (await api('/wallet/getnowblock')).json() as { blockID: string; block_header: { raw_data: { number: number; timestamp: number } } };
  const { number, timestamp } = now.block_header.raw_data;
  const trigger = Buffer.concat([field(1, tronAddress(node.customer)), field(2, tronAddress(node.token)), field(4, Buffer.from(transfer(options.to, options.amount).slice(2), 'hex'))]);
  const any = Buffer.concat([field(1, Buffer.from('type.googleapis.com/protocol.TriggerSmartContract')), field(2, trigger)]);
  const raw = Buffer.concat([
    field(1, Buffer.from(number.toString(16).padStart(16, '0').slice(12), 'hex')),
    field(4, Buffer.from(options.refHash ?? now.blockID.slice(16, 32), 'hex')),
    field(8, options.expiration ?? BigInt(timestamp) + 60_000n),
    field(11, Buffer.concat([field(1, 31n), field(2, any)])),
    field(14, BigInt(timestamp)),
    field(18, options.feeLimit ?? 30_000_000n),
  ]);
  const txid = createHash('sha256').update(raw).digest('hex');
  const signature = await sign({ hash: `0x${txid}`, privateKey: options.key ?? CUSTOMER_KEY, to: 'hex' });
  return { hex: Buffer.concat([field(1, raw), field(2, Buffer.from(signature.slice(2), 'hex'))]).toString('hex'), txid };
}

describe('the TRON stand-in’s HTTP API', () => {
  before(async () => {
    // A solidification depth of its own: /walletsolidity follows it.
    node = await startTronNode({ solidificationDepth: 5 });
  });

  after(() => node.stop());

  const broadcast = async (hex: string) => (await api('/wallet/broadcasthex', { transaction: hex })).json() as { result: boolean; code: string; message: string; txid: string; transaction: string };
  const info = async (txid: string, path = '/wallet/gettransactioninfobyid') => (await api(path, { value: txid })).json() as Record<string, unknown> & { receipt?: { result: string } };

  it('answers getnowblock as protocol.Block: blockID, the header’s number, timestamp in ms, parent, witness', async () => {
    const block = await node.client.getBlock({ blockTag: 'latest' });
    const now = (await api('/wallet/getnowblock')).json();
    assert.deepEqual(now, {
      blockID: block.hash.slice(2),
      block_header: {
        raw_data: {
          number: Number(block.number),
          txTrieRoot: block.transactionsRoot.slice(2),
          witness_address: `41${block.miner.slice(2).toLowerCase()}`,
          parentHash: block.parentHash.slice(2),
          version: 34,
          timestamp: Number(block.timestamp) * 1000,
        },
        witness_signature: '00'.repeat(65),
      },
    });
  });

  it('broadcasts a signed TRC-20 transfer: SUCCESS, then the transfer lands and its info says SUCCESS with the log', async () => {
    const { hex, txid } = await tronTransfer({ to: node.other, amount: 250_000n });
    const answer = await broadcast(hex);
    assert.deepEqual([answer.result, answer.code, answer.message, answer.txid], [true, 'SUCCESS', '', txid]);
    assert.equal((JSON.parse(answer.transaction) as { txID: string }).txID, txid, 'transaction is a JSON string');
    assert.deepEqual(await info(txid), {}, 'nothing known before its block');
    await node.client.mine({ blocks: 1 });
    assert.equal(await balanceOf(node.other), 250_000n);
    const landed = await info(txid);
    assert.equal(landed.receipt?.result, 'SUCCESS');
    assert.equal((landed.log as { address: string }[])[0]?.address, node.token.slice(2).toLowerCase());
    // The JSON-RPC knows it by its TRON txid too, as java-tron's does.
    const receipt = await result<{ transactionHash: string; blockNumber: string; logs: { transactionHash: string }[] }>('eth_getTransactionReceipt', [`0x${txid}`]);
    assert.deepEqual([receipt.transactionHash, receipt.logs[0]?.transactionHash], [`0x${txid}`, `0x${txid}`]);
    const [log] = await result<{ transactionHash: string }[]>('eth_getLogs', [{ fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber, address: node.token }]);
    assert.equal(log?.transactionHash, `0x${txid}`);
    const block = await result<{ transactions: string[] }>('eth_getBlockByNumber', [receipt.blockNumber, false]);
    assert.deepEqual(block.transactions, [`0x${txid}`]);
    await node.client.mine({ blocks: 4 });
    assert.deepEqual(await info(txid, '/walletsolidity/gettransactioninfobyid'), {}, 'not solidified yet');
    await node.client.mine({ blocks: 1 });
    assert.equal((await info(txid, '/walletsolidity/gettransactioninfobyid')).receipt?.result, 'SUCCESS');

    const again = await broadcast(hex);
    assert.deepEqual([again.result, again.code, again.message], [false, 'DUP_TRANSACTION_ERROR', 'Dup transaction.']);
  });

  it('ends a transfer with too little fee_limit OUT_OF_ENERGY and one from a blacklisted sender REVERT, nothing moved', async () => {
    const starved = await tronTransfer({ to: node.other, amount: 1n, feeLimit: 210n * 23_000n });
    assert.equal((await broadcast(starved.hex)).code, 'SUCCESS');
    await node.client.mine({ blocks: 1 });
    const out = await info(starved.txid);
    assert.deepEqual([out.result, out.receipt?.result, out.log], ['FAILED', 'OUT_OF_ENERGY', undefined]);
    assert.match(Buffer.from(out.resMessage as string, 'hex').toString(), /^Not enough energy for /);

    await receiptOf(node.anvil.rpcUrl, await node.client.writeContract({ account: node.other, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'addBlackList', args: [node.customer] }), { mine: true });
    const balance = await balanceOf(node.other);
    const blocked = await tronTransfer({ to: node.other, amount: 1n });
    assert.equal((await broadcast(blocked.hex)).code, 'SUCCESS');
    await node.client.mine({ blocks: 1 });
    const reverted = await info(blocked.txid);
    assert.deepEqual([reverted.result, reverted.receipt?.result, Buffer.from(reverted.resMessage as string, 'hex').toString()], ['FAILED', 'REVERT', 'REVERT opcode executed']);
    assert.equal(await balanceOf(node.other), balance);
    await receiptOf(node.anvil.rpcUrl, await node.client.writeContract({ account: node.other, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'removeBlackList', args: [node.customer] }), { mine: true });
  });

  it('checks what java-tron checks before pooling: the signer, the reference block, the expiration', async () => {
    const wrongKey = await tronTransfer({ to: node.other, amount: 1n, key: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' });
    assert.deepEqual(await broadcast(wrongKey.hex).then((a) => [a.code, a.message]), ['SIGERROR', 'Validate signature error: sig error']);
    const forked = await tronTransfer({ to: node.other, amount: 1n, refHash: '00'.repeat(8) });
    assert.deepEqual(await broadcast(forked.hex).then((a) => [a.code, a.message]), ['TAPOS_ERROR', 'Tapos check error.']);
    const expired = await tronTransfer({ to: node.other, amount: 1n, expiration: 1n });
    assert.deepEqual(await broadcast(expired.hex).then((a) => [a.code, a.message]), ['TRANSACTION_EXPIRATION_ERROR', 'Transaction expired']);
    assert.equal(node.api.broadcasts.filter((b) => b.code !== 'SUCCESS').length >= 3, true);
  });

  it('answers any broadcasthex code a test asks for, with java-tron’s message, and pools nothing', async () => {
    const codes = ['BANDWITH_ERROR', 'SERVER_BUSY', 'TOO_BIG_TRANSACTION_ERROR', 'NOT_ENOUGH_EFFECTIVE_CONNECTION', 'CONTRACT_VALIDATE_ERROR', 'BLOCK_UNSOLIDIFIED'] as const;
    node.api.failBroadcasts([...codes]);
    const { hex, txid } = await tronTransfer({ to: node.other, amount: 1n });
    const answers = [];
    for (const _ of codes) answers.push(await broadcast(hex));
    assert.deepEqual(
      answers.map((a) => [a.result, a.code, a.message]),
      [
        [false, 'BANDWITH_ERROR', 'Account resource insufficient error.'],
        [false, 'SERVER_BUSY', 'Server busy.'],
        [false, 'TOO_BIG_TRANSACTION_ERROR', `Too big transaction, TxId ${txid}, the size is ${hex.length / 2} bytes, maxTxSize 512000`],
        [false, 'NOT_ENOUGH_EFFECTIVE_CONNECTION', 'P2P broadcast failed.'],
        [false, 'CONTRACT_VALIDATE_ERROR', 'Contract validate error : No contract!'],
        [false, 'BLOCK_UNSOLIDIFIED', 'Block unsolidified.'],
      ],
    );
    await node.client.mine({ blocks: 1 });
    assert.deepEqual(await info(txid), {});
    assert.equal((await broadcast(hex)).code, 'SUCCESS', 'the checks apply again');
  });

  it('answers {} for an unknown transaction and account, what a test set, and a lite node’s plain-text refusal', async () => {
    assert.deepEqual(await info('ab'.repeat(32)), {});
    assert.equal((await fetch(`${node.url}/wallet/getaccount`, { method: 'POST', body: '{}' })).status, 404, 'what it does not stand in for is not found');
    assert.deepEqual((await api('/wallet/getaccountresource', { address: '41' + 'cd'.repeat(20) })).json(), {});
    const resource = { freeNetUsed: 441, freeNetLimit: 600, EnergyLimit: 0, TotalEnergyLimit: 180000000000, TotalEnergyWeight: 2411528185 };
    node.api.setAccountResource(`41${node.customer.slice(2).toLowerCase()}`, resource);
    assert.deepEqual((await api('/wallet/getaccountresource', { address: `41${node.customer.slice(2).toLowerCase()}` })).json(), resource);
    node.api.setTransactionInfo('cd'.repeat(32), { id: 'cd'.repeat(32), receipt: { result: 'OUT_OF_ENERGY' }, result: 'FAILED' });
    assert.equal((await info('cd'.repeat(32))).receipt?.result, 'OUT_OF_ENERGY');
    node.api.liteNode(true);
    try {
      assert.equal((await api('/wallet/gettransactioninfobyid', { value: 'cd'.repeat(32) })).text, 'this API is closed because this node is a lite fullnode');
      assert.equal((await api('/wallet/getnowblock')).json().blockID === undefined, false, 'the head is still served');
    } finally {
      node.api.liteNode(false);
    }
  });
});
