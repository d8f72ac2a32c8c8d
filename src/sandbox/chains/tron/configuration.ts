// TRON on a node from the environment (DESIGN.md 9.1, docs/networks.md "TRON on a node"): TRON_RPC_URL puts USDT on
// TRON on a node's JSON-RPC instead of the simulator; the other TRON_* variables are refused without it.
import { isValidAddress } from '../../../codecs/addresses.js';
import type { ChainVariable, EnvOf } from '../../variables.js';
import type { NetworkSpec } from '../networks.js';
import { nodeSource, wholeNumber } from '../env-values.js';

/** `eth_chainId` of TRON's mainnet and of its Nile testnet: the last four bytes of each genesis block's hash. */
export const TRON_MAINNET_CHAIN_ID = '0x2b6653dc';
export const TRON_NILE_CHAIN_ID = '0xcd8690dc';
/** Tether's USDT-TRC20 contracts; another chain id needs TRON_USDT_CONTRACT. */
const USDT_CONTRACTS: Record<string, string> = {
  [TRON_MAINNET_CHAIN_ID]: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  [TRON_NILE_CHAIN_ID]: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
};
/**
 * A block comes every 3 s and 19 make one solid. Asked every 2 s with 2 s to answer, a provider that stops answering
 * makes new payments 503 within 8 s (services/chains/chain-facts.ts, staleAfterMs; DESIGN.md 9.1 asks 10), at about
 * two and a half calls a block.
 */
const DEFAULTS = { pollMs: 2_000, timeoutMs: 2_000, confirmations: 19, finalityBlocks: 27, stallMs: 60_000, crossCheckMs: 60_000 } as const;

const TRON_ONLY = ['TRON_API_URL', 'TRON_API_KEY', 'TRON_USDT_CONTRACT', 'TRON_CHAIN_ID', 'TRON_CONFIRMATIONS', 'TRON_POLL_MS', 'TRON_TIMEOUT_MS', 'TRON_FINALITY_BLOCKS', 'TRON_STALL_MS', 'TRON_CROSSCHECK_MS'] as const;

type TronEnv = EnvOf<ChainVariable>;

/** TRON on a node, when TRON_RPC_URL is set. */
export function tronOnNode(env: TronEnv): NetworkSpec | undefined {
  if (!env.TRON_RPC_URL) {
    const stray = TRON_ONLY.find((name) => env[name]);
    if (stray) throw new Error(`${stray} is set, but TRON_RPC_URL is not: it applies to TRON on a node`);
    return undefined;
  }
  const chainId = (env.TRON_CHAIN_ID || TRON_NILE_CHAIN_ID).toLowerCase();
  if (!/^0x[0-9a-f]{1,8}$/.test(chainId)) throw new Error(`TRON_CHAIN_ID must be a chain id in hex, such as ${TRON_NILE_CHAIN_ID} (Nile) or ${TRON_MAINNET_CHAIN_ID} (mainnet), got ${env.TRON_CHAIN_ID}`);
  const contract = env.TRON_USDT_CONTRACT || USDT_CONTRACTS[chainId];
  if (!contract) throw new Error(`TRON_USDT_CONTRACT must be set for chain ${chainId}: only mainnet's and Nile's USDT are known`);
  if (!isValidAddress('tron', contract)) throw new Error(`TRON_USDT_CONTRACT must be a TRON address (base58check, starting with T), got ${contract}`);
  const source = nodeSource('TRON_RPC_URL', env.TRON_RPC_URL, {
    pollMs: wholeNumber(env, 'TRON_POLL_MS', DEFAULTS.pollMs, 100),
    timeoutMs: wholeNumber(env, 'TRON_TIMEOUT_MS', DEFAULTS.timeoutMs, 100),
    finalityBlocks: wholeNumber(env, 'TRON_FINALITY_BLOCKS', DEFAULTS.finalityBlocks, 1),
    stallMs: wholeNumber(env, 'TRON_STALL_MS', DEFAULTS.stallMs, 1_000),
    crossCheckMs: wholeNumber(env, 'TRON_CROSSCHECK_MS', DEFAULTS.crossCheckMs, 100),
    chainId,
    apiKey: env.TRON_API_KEY || undefined,
    apiUrl: env.TRON_API_URL || new URL(env.TRON_RPC_URL).origin,
  });
  if (!/^https?:\/\/./.test(source.apiUrl!)) throw new Error(`TRON_API_URL must be an http(s) URL, got ${source.apiUrl}`);
  const mainnet = chainId === TRON_MAINNET_CHAIN_ID;
  return {
    id: 'TRON',
    name: mainnet ? 'TRON' : chainId === TRON_NILE_CHAIN_ID ? 'TRON Nile' : `TRON (chain ${chainId})`,
    family: 'tron',
    testnet: !mainnet,
    assets: [{ asset: 'USDT', decimals: 6, quote_decimals: 2, token_contract: contract, token_standard: 'TRC-20' }],
    confirmations: wholeNumber(env, 'TRON_CONFIRMATIONS', DEFAULTS.confirmations, 1),
    ...tronExplorer(mainnet ? 'https://tronscan.org' : chainId === TRON_NILE_CHAIN_ID ? 'https://nile.tronscan.org' : undefined),
    source,
  };
}

/** Tronscan is a page of its own routes: a transaction is at `/#/transaction/{hash}`. */
function tronExplorer(url: string | undefined): Pick<NetworkSpec, 'explorer_url' | 'explorer_tx_url'> {
  return url ? { explorer_url: url, explorer_tx_url: `${url}/#/transaction/{hash}` } : {};
}
