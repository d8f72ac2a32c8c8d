// A private EVM node for a test file: anvil from its npm package, mining only when told, with the sandbox's test token
// (6 decimals by default) and the forwarder contract deployed, and the customer's accounts it unlocks. One per file,
// stopped with it.
import { after, before } from 'node:test';
import { createTestClient, http, publicActions, walletActions, type Address, type Hex } from 'viem';
import { startAnvil, type AnvilNode, type AnvilOptions } from '../../src/sandbox/chains/evm/anvil.js';
import { Forwarder, TestToken } from '../../src/sandbox/chains/evm/contracts/artifacts.js';
import { deployContract } from '../../src/sandbox/chains/evm/contracts/deploy.js';
import { networksFrom } from '../../src/sandbox/chains/configuration.js';
import type { NetworkSpec } from '../../src/sandbox/chains/networks.js';
import { ready, useTestGateway, type FixtureOptions } from './fixture.js';

export interface TestChain {
  node: AnvilNode;
  rpcUrl: string;
  token: Address;
  forwarder: Address;
  /** Anvil's test actions (mine, reorg, snapshot) with public and wallet actions over the node's unlocked accounts. */
  client: ReturnType<typeof testClient>;
  /** The customer: an unlocked account holding ETH and, once funded, tokens. */
  customer: Address;
  /** Another unlocked account: the one a double-spend sends to instead. */
  other: Address;
  stop(): Promise<void>;
}

const testClient = (rpcUrl: string) =>
  createTestClient({ mode: 'anvil', transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0 }).extend(publicActions).extend(walletActions);

export async function startTestChain(options: AnvilOptions & { decimals?: number; symbol?: string } = {}): Promise<TestChain> {
  const node = await startAnvil({ mining: 'manual', ...options });
  const client = testClient(node.rpcUrl);
  const [deployer, customer, other] = (await client.getAddresses()) as [Address, Address, Address];
  const token = await deployContract(node.rpcUrl, deployer, TestToken, [`Tether USD (test)`, options.symbol ?? 'USDT', options.decimals ?? 6], { mine: true });
  const forwarder = await deployContract(node.rpcUrl, deployer, Forwarder, [], { mine: true });
  await client.writeContract({ account: customer, chain: null, address: token, abi: TestToken.abi, functionName: 'mint', args: [customer, 10n ** 30n] });
  await client.mine({ blocks: 1 });
  return { node, rpcUrl: node.rpcUrl, token, forwarder, client, customer, other, stop: () => node.stop() };
}

/** The networks of a gateway that watches Ethereum (ETH and the test token) on this node; the others stay simulated. */
export function ethereumOn(chain: TestChain, env: Record<string, string> = {}): NetworkSpec[] {
  return networksFrom({ ETHEREUM_RPC_URL: chain.rpcUrl, ETHEREUM_USDT_CONTRACT: chain.token, ETHEREUM_POLL_MS: '200', ...env });
}

/**
 * A node and a gateway that watches Ethereum on it (ethereumOn), for the suite this is called in: the gateway closes
 * before the node stops. `gateway` adds to the gateway's options (its `config.networks` replaces ethereumOn's);
 * `payouts`: `mine` follows the payouts too.
 */
export function useGatewayOnChain(options: { gateway?: (chain: TestChain) => FixtureOptions | Promise<FixtureOptions>; payouts?: boolean } = {}) {
  let started: TestChain | undefined;
  before(async () => {
    started = await startTestChain();
  });
  const chain = ready('the test chain', () => started);
  const gw = useTestGateway(async () => {
    const more = (await options.gateway?.(chain)) ?? {};
    return { ...more, config: { networks: ethereumOn(chain), ...more.config } };
  });
  after(() => started?.stop());
  /** Blocks on the node; the gateway follows them (then its payouts, with `payouts`). */
  async function mine(blocks = 1) {
    await chain.client.mine({ blocks });
    await gw.gateway.watcher.follow('ETHEREUM');
    if (options.payouts) await gw.gateway.payouts.follow();
  }
  return { chain, gw, mine };
}

/** Sends what an EIP-681 URI asks for, from `from`: a token transfer or a value transfer. */
export async function payUri(chain: TestChain, parsed: { target_address: string; function_name?: string; parameters?: Record<string, string> }, from = chain.customer): Promise<Hex> {
  if (parsed.function_name === 'transfer') {
    const { address, uint256 } = parsed.parameters ?? {};
    return chain.client.writeContract({
      account: from,
      chain: null,
      address: parsed.target_address as Address,
      abi: TestToken.abi,
      functionName: 'transfer',
      args: [address as Address, BigInt(uint256!)],
    });
  }
  return chain.client.sendTransaction({ account: from, chain: null, to: parsed.target_address as Address, value: BigInt(parsed.parameters?.value ?? '0') });
}
