// The EVM family's networks from the environment (README, "Real chains"; docs/networks.md): Ethereum on a node with
// ETHEREUM_RPC_URL (or its confirmations, simulated), and any further EVM network (or Ethereum itself) from the JSON
// file EVM_NETWORKS names. Every value is checked here, at start, and a bad one is refused in one line naming it.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { fieldErrors } from '../../../contract/index.js';
import { ASSET_CODE, NETWORK_ID } from '../../../contract/assets.js';
import { isValidAddress, toChecksumAddress } from '../../../codecs/addresses.js';
import type { ChainVariable, EnvOf } from '../../variables.js';
import type { NetworkSpec } from '../networks.js';
import { DEFAULT_FINALITY_BLOCKS, DEFAULT_POLL_MS, DEFAULT_TIMEOUT_MS, nodeSource, wholeNumber } from '../env-values.js';
import { SEPOLIA_CHAIN_ID } from '../networks.js';

type ChainEnv = EnvOf<ChainVariable>;

/**
 * The EVM networks the environment configures, over `configured` (the simulated ones): Ethereum on a node, or the
 * simulated Ethereum with ETHEREUM_CONFIRMATIONS, then EVM_NETWORKS' networks. Each replaces a network of its id.
 */
export function evmNetworks(env: ChainEnv, configured: readonly NetworkSpec[]): NetworkSpec[] {
  let ethereum = configured.find((n) => n.id === 'ETHEREUM');
  if (env.ETHEREUM_RPC_URL) ethereum = ethereumOnNode(env);
  else {
    for (const name of ['ETHEREUM_CHAIN_ID', 'ETHEREUM_USDT_CONTRACT', 'ETHEREUM_USDT_DECIMALS'] as const) {
      if (env[name]) throw new Error(`${name} is set, but ETHEREUM_RPC_URL is not: it applies to Ethereum on a node`);
    }
    if (env.ETHEREUM_CONFIRMATIONS && ethereum) ethereum = { ...ethereum, confirmations: wholeNumber(env, 'ETHEREUM_CONFIRMATIONS', 0, 1) };
  }
  return [...(ethereum ? [ethereum] : []), ...(env.EVM_NETWORKS ? evmNetworksFile(env.EVM_NETWORKS) : [])];
}

function ethereumOnNode(env: ChainEnv): NetworkSpec {
  const chainId = wholeNumber(env, 'ETHEREUM_CHAIN_ID', SEPOLIA_CHAIN_ID, 1);
  const contract = env.ETHEREUM_USDT_CONTRACT;
  if (contract !== undefined && !isValidAddress('evm', contract)) throw new Error(`ETHEREUM_USDT_CONTRACT must be an Ethereum address (0x and 40 hex digits), got ${contract}`);
  const decimals = env.ETHEREUM_USDT_DECIMALS ? wholeNumber(env, 'ETHEREUM_USDT_DECIMALS', 0, 0, 36) : undefined;
  return {
    id: 'ETHEREUM',
    name: chainId === SEPOLIA_CHAIN_ID ? 'Ethereum Sepolia' : chainId === 1 ? 'Ethereum' : `Ethereum (chain ${chainId})`,
    family: 'evm',
    testnet: chainId !== 1,
    chain_id: chainId,
    assets: [
      ...(contract ? [{ asset: 'USDT', decimals, quote_decimals: 2, token_contract: toChecksumAddress(contract), token_standard: 'ERC-20' }] : []),
      { asset: 'ETH', decimals: 18, quote_decimals: 6 },
    ],
    confirmations: wholeNumber(env, 'ETHEREUM_CONFIRMATIONS', 3, 1),
    ...evmExplorer(chainId === SEPOLIA_CHAIN_ID ? 'https://sepolia.etherscan.io' : chainId === 1 ? 'https://etherscan.io' : undefined),
    source: nodeSource('ETHEREUM_RPC_URL', env.ETHEREUM_RPC_URL!, {
      pollMs: wholeNumber(env, 'ETHEREUM_POLL_MS', DEFAULT_POLL_MS, 100),
      walletRpcUrl: webUrlFrom(env, 'ETHEREUM_WALLET_RPC_URL'),
      timeoutMs: wholeNumber(env, 'ETHEREUM_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 100),
      finalityBlocks: wholeNumber(env, 'ETHEREUM_FINALITY_BLOCKS', DEFAULT_FINALITY_BLOCKS, 1),
    }),
  };
}

const whole = (min: number) => z.int('must be a whole number').check(z.gte(min, `must be at least ${min}`));
const decimalString = z.string('must be a decimal string such as "15000000"').check(z.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "15000000"'));
const Native = z.object({
  asset: z.string('must be an asset code').check(z.regex(ASSET_CODE, 'must be an asset code such as BNB')),
  decimals: z._default(whole(0), 18),
  quote_decimals: z._default(whole(0), 6),
  rate_vnd: z.optional(decimalString),
});
const Token = z.object({
  asset: z.string('must be an asset code').check(z.regex(ASSET_CODE, 'must be an asset code such as USDT')),
  token_contract: z.string('must be an address').check(z.refine((value) => isValidAddress('evm', value), 'must be an EVM address (0x and 40 hex digits)')),
  decimals: z.optional(whole(0)),
  quote_decimals: z._default(whole(0), 2),
  token_standard: z._default(z.string(), 'ERC-20'),
  rate_vnd: z.optional(decimalString),
});
const webUrl = z.string('must be a URL').check(z.refine((value) => /^https?:\/\/./.test(value), 'must be an http(s) URL'));
const EvmNetwork = z.object({
  id: z.string('must be a network id').check(z.regex(NETWORK_ID, 'must be upper-case letters, digits and _, such as BSC_TESTNET')),
  name: z.string('must be a name').check(z.minLength(1, 'must not be empty')),
  chain_id: whole(1),
  rpc_url: webUrl,
  native: Native,
  tokens: z._default(z.array(Token), []),
  confirmations: z._default(whole(1), 3),
  explorer_url: z.optional(webUrl),
  testnet: z._default(z.boolean('must be true or false'), true),
  wallet_rpc_url: z.optional(webUrl),
  poll_ms: z._default(whole(100), DEFAULT_POLL_MS),
  timeout_ms: z._default(whole(100), DEFAULT_TIMEOUT_MS),
  finality_blocks: z._default(whole(1), DEFAULT_FINALITY_BLOCKS),
  dev: z._default(z.boolean('must be true or false'), false),
});
const EvmNetworksFile = z.array(EvmNetwork);

/** EVM_NETWORKS: a JSON file of EVM networks (docs/networks.md shows one). */
function evmNetworksFile(path: string): NetworkSpec[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`EVM_NETWORKS (${path}) could not be read as JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = EvmNetworksFile.safeParse(json);
  if (!parsed.success) {
    const first = fieldErrors(parsed.error)[0]!;
    throw new Error(`EVM_NETWORKS (${path}): [${first.path}] ${first.message}`);
  }
  return parsed.data.map((n) => ({
    id: n.id,
    name: n.name,
    family: 'evm',
    testnet: n.testnet,
    chain_id: n.chain_id,
    assets: [
      ...n.tokens.map((t) => ({ ...t, token_contract: toChecksumAddress(t.token_contract) })),
      n.native,
    ],
    confirmations: n.confirmations,
    ...evmExplorer(n.explorer_url),
    source: nodeSource(`EVM_NETWORKS [${n.id}].rpc_url`, n.rpc_url, {
      walletRpcUrl: n.wallet_rpc_url,
      pollMs: n.poll_ms,
      timeoutMs: n.timeout_ms,
      finalityBlocks: n.finality_blocks,
      dev: n.dev,
    }),
  }));
}

function webUrlFrom(env: ChainEnv, name: ChainVariable): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  if (!/^https?:\/\/./.test(raw)) throw new Error(`${name} must be an http(s) URL, got ${raw}`);
  return raw;
}

/** An EVM explorer (Etherscan and its kind) shows a transaction at `/tx/{hash}`. */
function evmExplorer(url: string | undefined): Pick<NetworkSpec, 'explorer_url' | 'explorer_tx_url'> {
  return url ? { explorer_url: url, explorer_tx_url: `${url.replace(/\/+$/, '')}/tx/{hash}` } : {};
}
