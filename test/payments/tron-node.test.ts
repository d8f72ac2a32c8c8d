// The gateway watching USDT on TRON on a node's JSON-RPC (chains/tron/node-chain.ts; DESIGN.md 9.1), on the stand-in
// (test/helpers/tron-node.ts: anvil with Nile's chain id behind a layer that answers as java-tron does): paid at
// exactly TRON's 19 confirmations, only the configured contract's Transfer logs counted (never a token of the same
// symbol elsewhere), two transfers in one transaction both counted, a transfer reorganised away before it is solid
// taken back, a throttling provider taken for the network unreachable without a block skipped, a SIGKILLed process
// resuming, and never a method TRON refuses called.
// Store: any. The facts are the same rows as EVM's, tested on both stores there; it runs in the PGlite pass only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Address, Hex } from 'viem';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { tronAddressFromHex, tronAddressToHex } from '../../src/codecs/addresses.js';
import type { Payment } from '../../src/contract/index.js';
import { transactionUrl } from '../../src/contract/explorer.js';
import { Batcher, TestToken, Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { RunningClock, sampleLink } from '../helpers/gateway.js';

import { JSON_TYPE, send, signedLinkBody } from '../helpers/merchant-api.js';

import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';
import { startTronNode, tronEnv, useGatewayOnTron, type TronNode } from '../helpers/tron-node.js';

import { eventually } from '../helpers/until.js';

/** A TRC-20 transfer of the payment's amount (or `atomic`) to its base58 address, from the customer, not yet mined. */
function pay(node: TronNode, payment: Payment, token: Address = node.token, atomic = parseDecimal(payment.amount_crypto, 6)): Promise<Hex> {
  const args = [tronAddressToHex(payment.address) as Address, atomic] as const;
  return node.client.writeContract({ account: node.customer, chain: null, address: token, abi: Trc20TestToken.abi, functionName: 'transfer', args });
}

/** No call the gateway made was one TRON refuses (a method it does not serve, a tag it does not take). */
function assertNothingRefused(node: TronNode): void {
  const refused = node.calls.filter((c) => c.error && !c.throttled);
  assert.deepEqual(
    refused.map((c) => `${c.method}: ${c.error!.message}`),
    [],
    'the watcher called nothing TRON refuses',
  );
  assert.ok(node.calls.length > 0 && node.calls.every((c) => c.apiKey === 'the-key'), 'every call carried TRON_API_KEY');
}

describe('USDT on TRON on a node, followed step by step', () => {
  const { node, gw, mine } = useGatewayOnTron();

  async function open() {
    const link = await gw.client.createPaymentLink(sampleLink());
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    const { status, body } = await checkout.open('USDT', 'TRON');
    assert.equal(status, 201, JSON.stringify(body));
    return { ref: link.payment_link_ref, checkout, payment: body };
  }
  const status = async (checkout: ReturnType<typeof checkoutApi>, payment: Payment) => (await checkout.payment(payment.payment_id)).body;

  it('is paid at exactly 19 confirmations, not at 18, with the transaction as TRON and Tronscan write it', async () => {
    const { checkout, payment } = await open();
    assert.equal(payment.confirmations_required, 19);
    assert.match(payment.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const hash = await pay(node, payment);
    await mine();
    const one = await status(checkout, payment);
    assert.deepEqual([one.status, one.received_crypto, one.transactions[0]?.confirmations], ['confirming', payment.amount_crypto, 1]);
    assert.match(one.transactions[0]!.tx_hash, /^[0-9a-f]{64}$/, 'the txID without 0x');
    assert.equal(one.transactions[0]!.tx_hash, hash.slice(2));
    await mine(17);
    const eighteen = await status(checkout, payment);
    assert.deepEqual([eighteen.status, eighteen.transactions[0]?.confirmations], ['confirming', 18]);
    await mine();
    const paid = await status(checkout, payment);
    assert.deepEqual([paid.status, paid.transactions[0]?.confirmations], ['paid', 19]);
    const asset = (await checkout.view()).body.methods.flatMap((m) => m.assets).find((a) => a.network === 'TRON')!;
    assert.equal(transactionUrl(asset.explorer_tx_url, paid.transactions[0]!.tx_hash), `https://nile.tronscan.org/#/transaction/${hash.slice(2)}`, 'Tronscan’s page of it');
  });

  it('takes a refund on TRON (paid out from the payout wallet: tron-payouts.test.ts), and lists the TRON payout wallet', async () => {
    const { ref, checkout, payment } = await open();
    await pay(node, payment);
    await mine(19);
    assert.equal((await status(checkout, payment)).status, 'paid');
    const orderId = (await gw.client.getPaymentLink(ref)).merchant_order_id;
    const made = await gw.client.createRefund(orderId, { amount: 1_000, channel: 'PROVIDER', description: 'returned', refund_type: 'partial', refund_reason: 'damaged' });
    const [refund] = made.refundDetails;
    assert.equal(refund?.refund_status, 'PENDING');
    assert.ok(refund.claim_url, 'waiting for the customer to claim it');
    const wallets = (await gw.client.getPayoutWallets()).wallets;
    assert.deepEqual(wallets.map((w) => [w.network, w.balances.map((b) => [b.asset, b.balance])]), [['TRON', [['USDT', '0']]]]);
    assert.match(wallets[0]!.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it('says TRON Nile is on a node, by its origin only, and that it can be seen', async () => {
    const { body } = await sandboxApi(gw.url).chain();
    const tron = body.networks.find((n) => n.network === 'TRON')!;
    assert.deepEqual([tron.source, tron.rpc_url, tron.available, tron.name], ['node', node.url, true, 'TRON Nile']);
  });

  it('never counts a token of the same symbol at another contract', async () => {
    const [deployer] = await node.client.getAddresses();
    const fake = await deployContract(node.anvil.rpcUrl, deployer!, TestToken, ['Tether USD', 'USDT', 6], { mine: true });
    await node.client.writeContract({ account: node.customer, chain: null, address: fake, abi: TestToken.abi, functionName: 'mint', args: [node.customer, 10n ** 12n] });
    const { checkout, payment } = await open();
    await pay(node, payment, fake);
    await mine(20);
    const seen = await status(checkout, payment);
    assert.deepEqual([seen.status, seen.received_crypto, seen.transactions], ['awaiting_payment', '0', []]);
  });

  it('counts both transfers of one transaction (an exchange’s batched withdrawal), each to its own payment', async () => {
    const [deployer] = await node.client.getAddresses();
    const batcher = await deployContract(node.anvil.rpcUrl, deployer!, Batcher, [], { mine: true });
    await node.client.writeContract({ account: node.customer, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'approve', args: [batcher, 10n ** 20n] });
    await node.client.mine({ blocks: 1 });
    const [a, b] = [await open(), await open()];
    const hash = await node.client.writeContract({
      account: node.customer,
      chain: null,
      address: batcher,
      abi: Batcher.abi,
      functionName: 'payAll',
      args: [node.token, [a, b].map((o) => tronAddressToHex(o.payment.address) as Address), [a, b].map((o) => parseDecimal(o.payment.amount_crypto, 6))],
    });
    await mine(19);
    for (const { checkout, payment } of [a, b]) {
      const paid = await status(checkout, payment);
      assert.deepEqual([paid.status, paid.received_crypto, paid.transactions.map((t) => [t.tx_hash, t.confirmations])], ['paid', payment.amount_crypto, [[hash.slice(2), 19]]]);
    }
  });

  it('takes back a transfer whose block is reorganised away before it is solid', async () => {
    const { checkout, payment } = await open();
    await pay(node, payment);
    await mine(5);
    assert.equal((await status(checkout, payment)).transactions[0]?.confirmations, 5);
    await node.client.request({ method: 'anvil_reorg', params: [6, []] } as never);
    await gw.gateway.watcher.follow('TRON');
    const back = await status(checkout, payment);
    assert.deepEqual([back.status, back.received_crypto, back.transactions], ['awaiting_payment', '0', []]);
  });

  it('tells the restore’s scan an address holding TRX or the token is used, and one holding neither not', async () => {
    const port = gw.gateway.chains.port('TRON');
    const fresh = () => tronAddressFromHex(`0x${randomBytes(20).toString('hex')}`);
    const [empty, withToken, withTrx] = [fresh(), fresh(), fresh()];
    await node.client.writeContract({ account: node.customer, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'transfer', args: [tronAddressToHex(withToken) as Address, 1n] });
    // 1 ETH on anvil is 1 TRX on the stand-in.
    await node.client.request({ method: 'anvil_setBalance', params: [tronAddressToHex(withTrx), '0xde0b6b3a7640000'] } as never);
    await node.client.mine({ blocks: 1 });
    assert.deepEqual(await Promise.all([empty, withToken, withTrx].map((a) => port.addressUsed!(a))), [false, true, true]);
  });

  it('called nothing TRON refuses, and sent its key with every call', () => assertNothingRefused(node));
});

describe('USDT on TRON while its provider throttles', () => {
  const { node, gw } = useGatewayOnTron({ clock: new RunningClock(), watch: true });
  const openOn = async (network: 'ETHEREUM' | 'TRON') => {
    const link = await gw.client.createPaymentLink(sampleLink());
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    return { checkout, ...(await checkout.open('USDT', network)) };
  };

  it('takes HTTP 429 for TRON unreachable (test/chain/tron-json-rpc.test.ts has every other form): new TRON payments 503 naming it, others go on, and what was paid meanwhile is found', async () => {
    const { checkout, status, body: payment } = await openOn('TRON');
    assert.equal(status, 201, JSON.stringify(payment));
    node.throttle(429);
    const throttledFrom = node.calls.length;
    // The customer pays through the chain while the gateway's provider refuses it.
    await pay(node, payment);
    await node.client.mine({ blocks: 20 });
    const tronAsset = async () => (await checkout.view()).body.methods.flatMap((m) => m.assets).find((a) => a.network === 'TRON')!;
    // Within 5 s by construction (TRON_POLL_MS 150 and TRON_TIMEOUT_MS 1000: staleAfterMs); the wait allows a loaded machine.
    await eventually('TRON said unavailable', tronAsset, (asset) => !asset.available);
    const refused = await openOn('TRON');
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.match((refused.body as unknown as { detail: string }).detail, /TRON Nile \(TRON\) cannot be reached right now/);
    assert.equal((await openOn('ETHEREUM')).status, 201, 'the other networks go on');
    assert.equal((await checkout.payment(payment.payment_id)).body.status, 'awaiting_payment', 'nothing believed while refused');
    const refusedCalls = node.calls.slice(throttledFrom).filter((c) => c.throttled);
    assert.ok(refusedCalls.length > 0, 'the watcher asked while throttled');
    node.throttle(undefined);
    const paid = await eventually('the payment once the provider answers', async () => (await checkout.payment(payment.payment_id)).body, (p) => p.status === 'paid');
    assert.equal(paid.received_crypto, payment.amount_crypto);
    await eventually('TRON available again', tronAsset, (asset) => asset.available);
    assert.equal((await openOn('TRON')).status, 201);
  });

  it('called nothing TRON refuses', () => assertNothingRefused(node));
});

describe('a gateway process SIGKILLed while it follows TRON', () => {
  let node: TronNode;
  let folder: string;
  let env: Record<string, string>;
  const { sandboxMerchant } = loadConfig({});
  before(async () => {
    node = await startTronNode();
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-tron-restart-'));
    env = { PGLITE_DIR: join(folder, 'pglite'), SANDBOX_BLOCK_INTERVAL_MS: '0', ...tronEnv(node) };
  });
  after(async () => {
    await node?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('resumes from its cursor and counts the transfer once', async () => {
    let gateway: GatewayProcess = await startGatewayProcess(env);
    try {
      const created = await send<{ payment_link_ref: string }>(gateway.url, 'POST', '/api/paymentLink', { headers: JSON_TYPE, body: JSON.stringify(signedLinkBody(sandboxMerchant, sampleLink())) });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ref = created.body.payment_link_ref;
      const { status, body: payment } = await checkoutApi(gateway.url, ref).open('USDT', 'TRON');
      assert.equal(status, 201, JSON.stringify(payment));
      await pay(node, payment);
      await node.client.mine({ blocks: 5 });
      const read = async () => (await checkoutApi(gateway.url, ref).payment(payment.payment_id)).body;
      await eventually('the transfer seen', read, (p) => p.transactions[0]?.confirmations === 5);
      await gateway.kill();
      await node.client.mine({ blocks: 14 });
      gateway = await startGatewayProcess(env);
      const paid = await eventually('the payment after the restart', read, (p) => p.status === 'paid');
      assert.deepEqual([paid.transactions.length, paid.received_crypto], [1, payment.amount_crypto]);
    } finally {
      await gateway.stop();
    }
    assertNothingRefused(node);
  });
});
