// A second EVM network added by configuration alone (an EVM_NETWORKS file): BNB Smart Chain testnet's look (chain 97,
// BNB, a USDT of 18 decimals) on a second anvil, side by side with Ethereum on the first.
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseEip681 } from 'eth-url-parser';
import { loadConfig } from '../../src/sandbox/config.js';
import { ethereumOn, payUri, startTestChain, type TestChain } from '../helpers/anvil.js';

import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway, type FixtureOptions } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

describe(`a second EVM network from configuration (${storageName})`, () => {
  let ethereum: TestChain;
  let bsc: TestChain;
  let folder: string;
  let gateway: FixtureOptions;
  before(async () => {
    [ethereum, bsc] = await Promise.all([startTestChain(), startTestChain({ chainId: 97, decimals: 18 })]);
    folder = await mkdtemp(join(tmpdir(), 'pay-checkout-networks-'));
    const file = join(folder, 'networks.json');
    await writeFile(
      file,
      JSON.stringify([
        {
          id: 'BSC_TESTNET',
          name: 'BNB Smart Chain Testnet',
          chain_id: 97,
          rpc_url: bsc.rpcUrl,
          native: { asset: 'BNB', decimals: 18, quote_decimals: 6, rate_vnd: '15000000' },
          tokens: [{ asset: 'USDT', token_contract: bsc.token, quote_decimals: 2, token_standard: 'BEP-20' }],
          confirmations: 2,
          explorer_url: 'https://testnet.bscscan.com',
          poll_ms: 200,
        },
      ]),
    );
    const config = loadConfig({ EVM_NETWORKS: file });
    // Ethereum on the first node, the file's network after it: the configuration as an operator would give it.
    const networks = [...ethereumOn(ethereum), ...config.networks.filter((n) => n.id === 'BSC_TESTNET')];
    gateway = { config: { networks, payments: config.payments } };
  });
  const gw = useTestGateway(() => gateway);
  after(async () => {
    await Promise.all([ethereum.stop(), bsc.stop()]);
    await rm(folder, { recursive: true, force: true });
  });

  it('offers the new network with its own name, standard, chain id and the token’s decimals read from its contract', async () => {
    const link = await gw.client.createPaymentLink(sampleLink());
    const { body: view } = await checkoutApi(gw.url, link.payment_link_ref).view();
    const usdt = view.methods[0]!.assets.find((a) => a.network === 'BSC_TESTNET' && a.asset === 'USDT')!;
    assert.deepEqual(
      [usdt.network_name, usdt.token_standard, usdt.chain_id, usdt.decimals, usdt.label, usdt.available],
      ['BNB Smart Chain Testnet', 'BEP-20', 97, 18, 'USDT · BEP-20 (BNB Smart Chain Testnet)', true],
    );
    assert.ok(view.methods[0]!.assets.some((a) => a.network === 'BSC_TESTNET' && a.asset === 'BNB' && a.token_standard === null));
  });

  it('takes payments on both networks at once, each on its own node, each with its own confirmations', async () => {
    const open = async (asset: string, network: string) => {
      const link = await gw.client.createPaymentLink(sampleLink());
      const checkout = checkoutApi(gw.url, link.payment_link_ref);
      const { status, body } = await checkout.open(asset, network);
      assert.equal(status, 201, JSON.stringify(body));
      return { checkout, payment: body };
    };
    const onBsc = await open('USDT', 'BSC_TESTNET');
    const onEthereum = await open('ETH', 'ETHEREUM');
    const bscUri = parseEip681(onBsc.payment.payment_uri);
    assert.deepEqual([bscUri.chain_id, bscUri.target_address.toLowerCase()], ['97', bsc.token.toLowerCase()]);
    assert.match(onBsc.payment.amount_crypto, /^\d+(\.\d{1,2})?$/, 'quoted to 2 decimals, whatever the token’s 18');
    assert.equal(BigInt(bscUri.parameters!.uint256!) % 10n ** 16n, 0n, 'the URI carries all 18 decimals of it');
    await payUri(bsc, bscUri);
    await payUri(ethereum, parseEip681(onEthereum.payment.payment_uri));
    await bsc.client.mine({ blocks: 2 });
    await ethereum.client.mine({ blocks: 2 });
    await Promise.all([gw.gateway.watcher.follow('BSC_TESTNET'), gw.gateway.watcher.follow('ETHEREUM')]);
    assert.equal((await onBsc.checkout.payment(onBsc.payment.payment_id)).body.status, 'paid', 'two confirmations on BSC_TESTNET');
    assert.equal((await onEthereum.checkout.payment(onEthereum.payment.payment_id)).body.status, 'confirming', 'three on ETHEREUM');
    await ethereum.client.mine({ blocks: 1 });
    await gw.gateway.watcher.follow('ETHEREUM');
    assert.equal((await onEthereum.checkout.payment(onEthereum.payment.payment_id)).body.status, 'paid');
  });
});
