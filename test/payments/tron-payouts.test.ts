// Refunds paid out on TRON on a node (chains/tron/node-chain.ts, the TRON payout strategy; docs/networks.md, "TRON
// refunds"), on the stand-in (test/helpers/tron-node.ts): a claimed USDT refund sent from the merchant's payout wallet
// with /wallet/broadcasthex, a TRC-20 transfer with no nonce, gas or fees written down but an expiry and a bounded
// fee_limit, SUCCESS at TRON's 19 confirmations with the customer paid the amount; one that runs out of energy on
// chain FAILED with TRON's reason and its amount back; a broadcast the node is busy for sent again, one it refuses for
// good FAILED with its code; a wallet without the TRX or energy for the fee_limit waiting with wallet_funds until it is
// funded; a new transaction only once the last expired by the chain's time; and a gateway SIGKILLed before and after
// the broadcast paying once.
// Store: any. The payout rows are tested on both stores in evm-payouts.test.ts; this runs in the PGlite pass only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Address } from 'viem';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { tronAddressFromHex, tronAddressToHex } from '../../src/codecs/addresses.js';
import type { Payment } from '../../src/contract/index.js';
import { Trc20TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { PAYOUT_EXPIRY_MS } from '../../src/sandbox/chains/tron/node-chain.js';
import { MAX_FEE_LIMIT_SUN } from '../../src/sandbox/chains/tron/transaction.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { broadcastProxy, crashPoints, killedAt, type BroadcastProxy } from '../helpers/broadcast-proxy.js';
import { checkoutApi, claimedRefund } from '../helpers/checkout.js';
import { sampleLink } from '../helpers/gateway.js';

import { startGatewayProcess, type GatewayProcess } from '../helpers/process.js';
import { startTronNode, transactionInfo, tronEnv, useGatewayOnTron, type TronNode } from '../helpers/tron-node.js';

import { eventually } from '../helpers/until.js';

/** 1 TRX is 10^6 sun; on the stand-in it is 1 ETH of anvil's (10^18 wei). */
const WEI_PER_SUN = 10n ** 12n;
const fresh = () => tronAddressFromHex(`0x${randomBytes(20).toString('hex')}`);

/** The stand-in's chain moves a node's way for the tests: a customer's payment, a payout wallet's funds, balances. */
function onNode(node: TronNode) {
  return {
    pay(payment: Payment) {
      const args = [tronAddressToHex(payment.address) as Address, parseDecimal(payment.amount_crypto, 6)] as const;
      return node.client.writeContract({ account: node.customer, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'transfer', args });
    },
    /** Gives the wallet `usdt` of the token (atomic) from the customer, and sets its TRX to `sun`. */
    async fund(wallet: string, { usdt = 0n, sun }: { usdt?: bigint; sun?: bigint }) {
      if (usdt) await node.client.writeContract({ account: node.customer, chain: null, address: node.token, abi: Trc20TestToken.abi, functionName: 'transfer', args: [tronAddressToHex(wallet) as Address, usdt] });
      if (sun !== undefined) await node.client.request({ method: 'anvil_setBalance', params: [tronAddressToHex(wallet), `0x${(sun * WEI_PER_SUN).toString(16)}`] } as never);
      await node.client.mine({ blocks: 1 });
    },
    held: (address: string) => node.client.readContract({ address: node.token, abi: Trc20TestToken.abi, functionName: 'balanceOf', args: [tronAddressToHex(address) as Address] }),
  };
}

describe('refunds paid out on TRON on a node', () => {
  const { node, gw, mine } = useGatewayOnTron({ payouts: true });
  const chain = onNode(node);
  let hot: string;
  before(async () => {
    hot = await gw.gateway.payouts.walletAddress(gw.gateway.sandboxMerchant!.merchant_id, 'TRON');
    await chain.fund(hot, { usdt: 10n ** 12n, sun: 1_000n * 10n ** 6n });
  });
  async function paidOrder() {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { status, body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open('USDT', 'TRON');
    assert.equal(status, 201, JSON.stringify(payment));
    await chain.pay(payment);
    await mine(payment.confirmations_required);
    const paid = await gw.client.getPaymentLink(link.payment_link_ref);
    assert.equal(paid.status, 'paid');
    return paid.merchant_order_id;
  }
  const claimed = (orderId: string, amount: number, address: string) => claimedRefund(gw.url, gw.client, orderId, amount, address);
  const written = (refundId: string) =>
    gw.gateway.db.query<{ tx_hash: string; gas: string | null; fee_limit: string; expires_at: Date }>(
      'SELECT tx_hash, gas::text AS gas, fee_limit::text AS fee_limit, expires_at FROM payout_transactions WHERE refund_id = $1 ORDER BY seq',
      [refundId],
    );

  it('pays a claimed USDT refund from the payout wallet: one TRC-20 transfer broadcast, SUCCESS at 19 confirmations, the customer paid', async () => {
    const orderId = await paidOrder();
    const to = fresh();
    const refund = await claimed(orderId, 90_000, to);
    const from = node.api.broadcasts.length;
    await gw.gateway.payouts.follow();
    const sent = await gw.client.getRefund(refund.refund_id);
    assert.deepEqual(sent.history.map((h) => h.event), ['requested', 'claimed', 'sent']);
    assert.match(sent.psp_refund_id ?? '', /^[0-9a-f]{64}$/, 'the txID, as TRON writes it');
    assert.deepEqual(node.api.broadcasts.slice(from).map((b) => [b.txid, b.code]), [[sent.psp_refund_id, 'SUCCESS']]);
    const [row, ...more] = await written(refund.refund_id);
    assert.equal(more.length, 0);
    assert.equal(row!.gas, null, 'no gas, fees or nonce on TRON');
    assert.ok(BigInt(row!.fee_limit) > 0n && BigInt(row!.fee_limit) <= MAX_FEE_LIMIT_SUN, `a bounded fee_limit (${row!.fee_limit})`);
    const head = await node.client.getBlock();
    assert.equal(row!.expires_at.getTime(), Number(head.timestamp) * 1000 + PAYOUT_EXPIRY_MS, 'expiring minutes after the head block it names');
    await mine(18);
    assert.equal((await gw.client.getRefund(refund.refund_id)).refund_status, 'PENDING', '18 of 19 confirmations');
    await mine(1);
    const done = await gw.client.getRefund(refund.refund_id);
    assert.equal(done.refund_status, 'SUCCESS', done.failure_reason ?? '');
    assert.deepEqual(done.history.map((h) => h.event), ['requested', 'claimed', 'sent', 'confirmed']);
    assert.equal(await chain.held(to), parseDecimal(done.amount_crypto, 6), 'the amount, once');
    assert.equal(new Set(node.api.broadcasts.slice(from).map((b) => b.txid)).size, 1, 'one transaction');
  });

  it('a payout that runs out of energy on chain ends FAILED with TRON’s reason, nothing moved and its amount back', async () => {
    const orderId = await paidOrder();
    const before = (await gw.client.getRefunds(orderId)).amountToRefund;
    const to = fresh();
    const refund = await claimed(orderId, 50_000, to);
    await gw.gateway.payouts.follow();
    const txid = (await gw.client.getRefund(refund.refund_id)).psp_refund_id!;
    // On TRON a transaction out of energy is in its block and moves nothing: the stand-in's anvil never runs it, and
    // the block's info says so.
    await node.client.request({ method: 'anvil_dropAllTransactions' } as never);
    await node.client.mine({ blocks: 1 });
    const block = await node.client.getBlock();
    node.api.setTransactionInfo(txid, transactionInfo.outOfEnergy({ id: txid, blockNumber: Number(block.number), blockTimeStamp: Number(block.timestamp) * 1000, contractResult: [''] }, 64_285));
    await mine(17);
    assert.equal((await gw.client.getRefund(refund.refund_id)).refund_status, 'PENDING', 'a failure is final at the same depth as a success');
    await mine(1);
    const failed = await gw.client.getRefund(refund.refund_id);
    assert.equal(failed.refund_status, 'FAILED');
    assert.match(failed.failure_reason ?? '', new RegExp(`${txid} failed on chain: OUT_OF_ENERGY \\(Not enough energy for 'SSTORE' operation`));
    assert.equal(await chain.held(to), 0n, 'nothing moved');
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, before, 'its VND refundable again');
  });

  it('a payout wallet without the TRX or energy for the fee_limit waits with wallet_funds, and pays once funded', async () => {
    const orderId = await paidOrder();
    const to = fresh();
    await chain.fund(hot, { sun: 0n });
    const refund = await claimed(orderId, 40_000, to);
    const from = node.api.broadcasts.length;
    await gw.gateway.payouts.follow();
    const waiting = await gw.client.getRefund(refund.refund_id);
    assert.equal(waiting.payout_waiting?.reason, 'wallet_funds');
    assert.match(waiting.payout_waiting!.detail, new RegExp(`${hot} holds 0 sun of TRX and 0 energy .*less than the fee_limit of \\d+ sun`));
    // 1 TRX is less than the fee_limit; with energy staked enough to cover it, the wallet can pay.
    await chain.fund(hot, { sun: 10n ** 6n });
    await gw.gateway.payouts.follow();
    assert.match((await gw.client.getRefund(refund.refund_id)).payout_waiting?.detail ?? '', /holds 1000000 sun of TRX and 0 energy/);
    assert.equal(node.api.broadcasts.length, from, 'nothing broadcast while it waits');
    node.api.setAccountResource(`41${tronAddressToHex(hot).slice(2)}`, { freeNetLimit: 600, EnergyLimit: 1_000_000, EnergyUsed: 10 });
    await gw.gateway.payouts.follow();
    const sent = await gw.client.getRefund(refund.refund_id);
    assert.equal(sent.payout_waiting, null);
    assert.deepEqual(sent.history.map((h) => h.event), ['requested', 'claimed', 'sent']);
    await mine(19);
    const done = await gw.client.getRefund(refund.refund_id);
    assert.equal(done.refund_status, 'SUCCESS', done.failure_reason ?? '');
    assert.equal(await chain.held(to), parseDecimal(done.amount_crypto, 6));
  });

  it('takes a broadcast the node is too busy for again later, and fails a refund whose transaction the node refuses for good with TRON’s code and message', async () => {
    const orderId = await paidOrder();
    const [busyTo, refusedTo] = [fresh(), fresh()];
    const busy = await claimed(orderId, 20_000, busyTo);
    node.api.failBroadcasts(['SERVER_BUSY']);
    await gw.gateway.payouts.follow();
    const txid = (await gw.client.getRefund(busy.refund_id)).psp_refund_id;
    assert.deepEqual(node.api.broadcasts.filter((b) => b.txid === txid).map((b) => b.code), ['SERVER_BUSY']);
    await gw.gateway.payouts.follow();
    assert.deepEqual(node.api.broadcasts.filter((b) => b.txid === txid).map((b) => b.code), ['SERVER_BUSY', 'SUCCESS'], 'the same transaction again');
    await mine(19);
    assert.equal((await gw.client.getRefund(busy.refund_id)).refund_status, 'SUCCESS');
    const before = (await gw.client.getRefunds(orderId)).amountToRefund;
    const refused = await claimed(orderId, 10_000, refusedTo);
    node.api.failBroadcasts(['CONTRACT_VALIDATE_ERROR']);
    await gw.gateway.payouts.follow();
    const failed = await gw.client.getRefund(refused.refund_id);
    assert.equal(failed.refund_status, 'FAILED');
    assert.match(failed.failure_reason ?? '', /refused the payout transaction [0-9a-f]{64}: CONTRACT_VALIDATE_ERROR: Contract validate error : No contract!/);
    assert.equal((await gw.client.getRefunds(orderId)).amountToRefund, before, 'its VND refundable again');
    await mine(19);
    assert.equal(await chain.held(refusedTo), 0n, 'nothing moved');
  });

  it('gives a refund a new transaction only once its last expired by the head block’s time unknown to the node, and pays once', async () => {
    const orderId = await paidOrder();
    const to = fresh();
    const refund = await claimed(orderId, 30_000, to);
    // The node takes the first one not (its reference block gone, as after a reorganisation): it never lands.
    node.api.failBroadcasts(['TAPOS_ERROR']);
    await gw.gateway.payouts.follow();
    await mine(2);
    const [first] = await written(refund.refund_id);
    assert.equal((await written(refund.refund_id)).length, 1, 'no second transaction before the first expired');
    // The chain's time passes the expiry (the gateway's own clock is not what counts).
    await node.client.request({ method: 'evm_increaseTime', params: [PAYOUT_EXPIRY_MS / 1000] } as never);
    await mine(1);
    const [second, firstAgain, ...more] = (await written(refund.refund_id)).reverse();
    assert.deepEqual([firstAgain?.tx_hash, more.length], [first!.tx_hash, 0]);
    assert.ok(second && second.tx_hash !== first!.tx_hash, 'signed again once expired');
    assert.ok(second.expires_at > first!.expires_at);
    await mine(19);
    const done = await gw.client.getRefund(refund.refund_id);
    assert.equal(done.refund_status, 'SUCCESS', done.failure_reason ?? '');
    assert.equal(done.psp_refund_id, second.tx_hash);
    assert.deepEqual(done.history.map((h) => h.event), ['requested', 'claimed', 'sent', 'sent', 'confirmed']);
    assert.equal(await chain.held(to), parseDecimal(done.amount_crypto, 6), 'paid once');
  });

  it('called nothing TRON refuses, and sent its key with every call', () => {
    assert.deepEqual(node.calls.filter((c) => c.error).map((c) => `${c.method}: ${c.error!.message}`), []);
    assert.ok(node.calls.every((c) => c.apiKey === 'the-key'));
  });
});

describe('a gateway SIGKILLed in the middle of a TRON payout (PGlite)', () => {
  const { sandboxMerchant } = loadConfig({});
  let node: TronNode;
  let chain: ReturnType<typeof onNode>;
  let proxy: BroadcastProxy;
  let folder: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;
  before(async () => {
    node = await startTronNode();
    chain = onNode(node);
    proxy = await broadcastProxy(node.url, (path) => path === '/wallet/broadcasthex');
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-tron-payout-crash-'));
    env = { PGLITE_DIR: join(folder, 'pglite'), SANDBOX_BLOCK_INTERVAL_MS: '0', ...tronEnv(node), TRON_API_URL: proxy.url };
  });
  after(async () => {
    await gateway?.kill();
    await proxy?.close();
    await node?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const client = () => new MerchantClient({ baseUrl: gateway!.url, clientId: sandboxMerchant.clientId, clientSecret: sandboxMerchant.clientSecret, merchantKey: sandboxMerchant.merchantKey });
  /** A paid order, refunded and claimed to `to`: the gateway's payout round picks it up next. */
  async function paidAndClaimed(to: string) {
    const link = await client().createPaymentLink(sampleLink());
    const checkout = checkoutApi(gateway!.url, link.payment_link_ref);
    const { body: payment } = await checkout.open('USDT', 'TRON');
    await chain.pay(payment);
    await node.client.mine({ blocks: payment.confirmations_required });
    await eventually('the payment paid', async () => (await client().getPaymentLink(link.payment_link_ref)).status, (s) => s === 'paid');
    const orderId = (await client().getPaymentLink(link.payment_link_ref)).merchant_order_id;
    return (await claimedRefund(gateway!.url, client(), orderId, 80_000, to)).refund_id;
  }

  for (const [mode, where] of crashPoints) {
    it(`pays out exactly once when killed ${where}`, async () => {
      proxy.pass();
      gateway = await startGatewayProcess(env);
      const hot = (await client().getPayoutWallets()).wallets.find((w) => w.network === 'TRON')!.address;
      await chain.fund(hot, { usdt: 10n ** 12n, sun: 1_000n * 10n ** 6n });
      const to = fresh();
      const from = node.api.broadcasts.length;
      const { result: refundId, gateway: restarted } = await killedAt(proxy, mode, gateway, env, () => paidAndClaimed(to));
      gateway = restarted;
      const done = await eventually(
        'the refund ended',
        async () => {
          await node.client.mine({ blocks: 1 });
          return client().getRefund(refundId);
        },
        (refund) => refund.refund_status !== 'PENDING',
        60_000,
      );
      assert.equal(done.refund_status, 'SUCCESS', done.failure_reason ?? '');
      assert.deepEqual(done.history.map((h) => h.event), ['requested', 'claimed', 'sent', 'confirmed'], 'signed once: never a second transaction before the first expired');
      const txids = new Set(node.api.broadcasts.slice(from).map((b) => b.txid));
      assert.deepEqual([...txids], [done.psp_refund_id], 'one transaction, broadcast as often as it takes');
      assert.equal(await chain.held(to), parseDecimal(done.amount_crypto, 6), 'the customer paid once');
      await gateway.stop();
      gateway = undefined;
    });
  }
});
