// SANDBOX_CHAIN=anvil: `npm start` and `npm run gateway` run a development node (anvil, from its npm package) and put
// Ethereum on it: ETH, and a test USDT (6 decimals) deployed at a fixed address. The gateway watches it as it would any
// node; the sandbox's wallet, faucet and mining use the node's own methods; a tester's wallet (MetaMask) can pay a link
// on it. Its chain is kept with the gateway's data (a state file beside the PGlite folder).
import { join, dirname } from 'node:path';
import { createTestClient, getContractAddress, http, publicActions, walletActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { GatewayConfig } from '../../config.js';
import { nodeSource } from '../env-values.js';
import { SEPOLIA_CHAIN_ID } from '../networks.js';
import { startAnvil, type AnvilNode } from './anvil.js';
import { TestToken } from './contracts/artifacts.js';
import { receiptOf } from './contracts/deploy.js';

/** The port MetaMask and the docs expect of a local node; another is taken when it is in use. */
const PREFERRED_PORT = 8545;
/** The test token's deployer: a key of its own whose first transaction deploys it, so its address never changes. */
const DEPLOYER = privateKeyToAccount(`0x${bytesToHex(keccak_256(utf8ToBytes('pay-checkout sandbox test token deployer')))}`);
export const DEV_TOKEN_ADDRESS = getContractAddress({ from: DEPLOYER.address, nonce: 0n });

export interface DevChain {
  config: GatewayConfig;
  node: AnvilNode;
  /** What the start banner says of it. */
  banner: string[];
}

export async function startDevChain(config: GatewayConfig): Promise<DevChain> {
  const ethereum = config.networks.find((n) => n.id === 'ETHEREUM');
  if (!ethereum) throw new Error('SANDBOX_CHAIN=anvil puts Ethereum on a development node, but no ETHEREUM network is configured');
  const host = config.host === '0.0.0.0' || config.host === '::' ? config.host : '127.0.0.1';
  const statePath = config.dataDir ? join(dirname(config.dataDir), 'anvil-state.json') : undefined;
  // Blocks come on the node's own timer: the gateway never mines a node it was given.
  const seconds = ethereum.source.kind === 'simulated' ? Math.max(1, Math.round(ethereum.source.blockIntervalMs / 1000)) : 6;
  const start = (port: number) => startAnvil({ host, port, chainId: SEPOLIA_CHAIN_ID, mining: { intervalSeconds: seconds }, statePath });
  const node = await start(PREFERRED_PORT).catch(() => start(0));
  try {
    await deployTestToken(node.rpcUrl);
  } catch (error) {
    await node.stop();
    throw error;
  }
  const rpcUrl = `http://127.0.0.1:${node.port}`;
  const networks = config.networks.map((n) =>
    n.id !== 'ETHEREUM'
      ? n
      : {
          ...n,
          assets: [
            { asset: 'USDT', decimals: 6, quote_decimals: 2, token_contract: DEV_TOKEN_ADDRESS, token_standard: 'ERC-20' },
            { asset: 'ETH', decimals: 18, quote_decimals: 6 },
          ],
          source: nodeSource('SANDBOX_CHAIN=anvil', rpcUrl, { dev: true, walletRpcUrl: rpcUrl }),
        },
  );
  return {
    config: { ...config, networks },
    node,
    banner: [
      `Ethereum on a development node (SANDBOX_CHAIN=anvil): RPC ${rpcUrl}, chain id ${SEPOLIA_CHAIN_ID}, a block every ${seconds} s`,
      `  test USDT at ${DEV_TOKEN_ADDRESS}; a wallet (MetaMask) pointed at that RPC URL and chain id pays links on it`,
      ...(statePath ? [`  its chain is kept in ${statePath}`] : []),
    ],
  };
}

/** The test USDT at its fixed address: deployed by the first transaction of its own deployer, once per chain. */
async function deployTestToken(rpcUrl: string): Promise<void> {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).extend(publicActions).extend(walletActions);
  if (await client.getCode({ address: DEV_TOKEN_ADDRESS })) return;
  await client.setBalance({ address: DEPLOYER.address, value: 10n ** 18n });
  const hash = await client.deployContract({ account: DEPLOYER, chain: null, abi: TestToken.abi, bytecode: TestToken.bytecode as Hex, args: ['Tether USD (sandbox)', 'USDT', 6] });
  await receiptOf(rpcUrl, hash, { mine: true });
}
