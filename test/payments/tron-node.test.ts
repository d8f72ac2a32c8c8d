// The gateway watching USDT on TRON on a node's JSON-RPC (chains/tron/node-chain.ts; DESIGN.md 9.1), on anvil with
// Nile's chain id: paid at exactly TRON's 19 confirmations, only the configured contract's Transfer logs counted
// (never a token of the same symbol elsewhere), a transfer reorganised away before it is solid taken back, and the
// addresses of TRON's 20-byte hex written back as the base58 ones the gateway handed out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address } from 'viem';
import { parseDecimal } from '../../src/codecs/amounts.js';
import { tronAddressFromHex, tronAddressToHex } from '../../src/codecs/addresses.js';
import type { Payment } from '../../src/contract/index.js';
import { transactionUrl } from '../../src/contract/rules.js';
import { networksFrom } from '../../src/sandbox/chains/configuration.js';
import { TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { TRON_NILE_CHAIN_ID } from '../../src/sandbox/chains/tron/configuration.js';
import { startTestChain, type TestChain } from '../helpers/anvil.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';

describe(`USDT on TRON on a node (${storageName})`, () => {
  let chain: TestChain;
  let gw: TestGateway;
  before(async () => {
    chain = await startTestChain({ chainId: Number(TRON_NILE_CHAIN_ID) });
    const networks = networksFrom({ TRON_RPC_URL: chain.rpcUrl, TRON_USDT_CONTRACT: tronAddressFromHex(chain.token), TRON_POLL_MS: '200' });
    gw = await startTestGateway({ config: { networks } });
  });
  after(async () => {
    await gw?.close();
    await chain?.stop();
  });

  async function open() {
    const link = await gw.client.createPaymentLink(sampleLink());
    const checkout = checkoutApi(gw.url, link.payment_link_ref);
    const { status, body } = await checkout.open('USDT', 'TRON');
    assert.equal(status, 201, JSON.stringify(body));
    return { ref: link.payment_link_ref, checkout, payment: body };
  }
  /** A TRC-20 transfer of the payment's amount (or `atomic`) to its base58 address, from the customer, mined in a block. */
  async function pay(payment: Payment, token: Address = chain.token, atomic = parseDecimal(payment.amount_crypto, 6)) {
    const hash = await chain.client.writeContract({
      account: chain.customer,
      chain: null,
      address: token,
      abi: TestToken.abi,
      functionName: 'transfer',
      args: [tronAddressToHex(payment.address) as Address, atomic],
    });
    await mine();
    return hash;
  }
  async function mine(blocks = 1) {
    await chain.client.mine({ blocks });
    await gw.gateway.watcher.follow('TRON');
  }
  const status = async (checkout: ReturnType<typeof checkoutApi>, payment: Payment) => (await checkout.payment(payment.payment_id)).body;

  it('is paid at exactly 19 confirmations, not at 18, with the transaction as TRON writes it', async () => {
    const { checkout, payment } = await open();
    assert.equal(payment.confirmations_required, 19);
    assert.match(payment.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const hash = await pay(payment);
    const one = await status(checkout, payment);
    assert.deepEqual([one.status, one.received_crypto, one.transactions[0]?.confirmations], ['confirming', payment.amount_crypto, 1]);
    assert.equal(one.transactions[0]?.tx_hash, hash.slice(2), 'the txID without 0x, as TRON and its explorers write it');
    await mine(17);
    const eighteen = await status(checkout, payment);
    assert.deepEqual([eighteen.status, eighteen.transactions[0]?.confirmations], ['confirming', 18]);
    await mine();
    const paid = await status(checkout, payment);
    assert.deepEqual([paid.status, paid.transactions[0]?.confirmations], ['paid', 19]);
    const asset = (await checkout.view()).body.methods.flatMap((m) => m.assets).find((a) => a.network === 'TRON')!;
    assert.equal(transactionUrl(asset.explorer_tx_url, paid.transactions[0]!.tx_hash), `https://nile.tronscan.org/#/transaction/${hash.slice(2)}`, 'Tronscan’s page of it');
  });

  it('says TRON is on a node, by its origin only, and that it can be seen', async () => {
    const { body } = await sandboxApi(gw.url).chain();
    const tron = body.networks.find((n) => n.network === 'TRON')!;
    assert.deepEqual([tron.source, tron.rpc_url, tron.available, tron.name], ['node', new URL(chain.rpcUrl).origin, true, 'TRON Nile']);
  });

  it('never counts a token of the same symbol at another contract', async () => {
    const [deployer] = await chain.client.getAddresses();
    const fake = await deployContract(chain.rpcUrl, deployer!, TestToken, ['Tether USD', 'USDT', 6], { mine: true });
    await chain.client.writeContract({ account: chain.customer, chain: null, address: fake, abi: TestToken.abi, functionName: 'mint', args: [chain.customer, 10n ** 12n] });
    const { checkout, payment } = await open();
    await pay(payment, fake);
    await mine(19);
    const seen = await status(checkout, payment);
    assert.deepEqual([seen.status, seen.received_crypto, seen.transactions], ['awaiting_payment', '0', []]);
  });

  it('takes back a transfer whose block is reorganised away before it is solid', async () => {
    const { checkout, payment } = await open();
    await pay(payment);
    await mine(4);
    assert.equal((await status(checkout, payment)).transactions[0]?.confirmations, 5);
    await chain.client.request({ method: 'anvil_reorg', params: [6, []] } as never);
    await gw.gateway.watcher.follow('TRON');
    const back = await status(checkout, payment);
    assert.deepEqual([back.status, back.received_crypto, back.transactions], ['awaiting_payment', '0', []]);
  });
});
