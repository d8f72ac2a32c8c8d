// The checkout view names each asset's network as the gateway is configured, and says whether it is a test network:
// the customer reads it, and the element tests no network id (one id, ETHEREUM, is Sepolia here and chain 1 there).
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networksFrom } from '../../src/sandbox/chains/configuration.js';
import { checkoutApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName, type TestGateway } from '../helpers/gateway.js';

/** `name (testnet)` of each network in a view's assets, by network id. */
async function namesIn(gw: TestGateway): Promise<Record<string, string>> {
  const link = await gw.client.createPaymentLink(sampleLink());
  const { body: view } = await checkoutApi(gw.url, link.payment_link_ref).view();
  return Object.fromEntries(view.methods[0]!.assets.map((a) => [a.network, `${a.network_name} (${a.testnet ? 'testnet' : 'main'})`]));
}

describe(`network names and test networks in the checkout view (${storageName})`, () => {
  const sandbox = useTestGateway();
  // Ethereum on a chain 1 node that does not answer: the view lists its assets all the same (unavailable).
  const mainnet = useTestGateway({ config: { networks: networksFrom({ ETHEREUM_RPC_URL: 'http://127.0.0.1:9', ETHEREUM_CHAIN_ID: '1' }) } });

  it('calls the simulated networks test networks, by their names', async () => {
    assert.deepEqual(await namesIn(sandbox), { TRON: 'TRON (testnet)', ETHEREUM: 'Ethereum Sepolia (testnet)', BITCOIN: 'Bitcoin (testnet)' });
  });

  it('calls Ethereum on chain 1 Ethereum, a main network, and a node on another chain a test network', async () => {
    assert.equal((await namesIn(mainnet)).ETHEREUM, 'Ethereum (main)');
    assert.deepEqual(
      [networksFrom({ ETHEREUM_RPC_URL: 'http://127.0.0.1:9' }), networksFrom({ ETHEREUM_RPC_URL: 'http://127.0.0.1:9', ETHEREUM_CHAIN_ID: '17000' })].map((networks) => {
        const ethereum = networks.find((n) => n.id === 'ETHEREUM')!;
        return `${ethereum.name} (${ethereum.testnet ? 'testnet' : 'main'})`;
      }),
      ['Ethereum Sepolia (testnet)', 'Ethereum (chain 17000) (testnet)'],
    );
  });
});
