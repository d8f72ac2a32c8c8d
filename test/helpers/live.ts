// What a live operator sets (GATEWAY_ENV=live; docs/operations.md, "Going live"): Ethereum on a node (a test's anvil),
// TRON and Bitcoin left out by NETWORKS, fixed rates the operator chose, keys of its own (none of the sandbox's).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestChain } from './anvil.js';

/** The live environment on `chain`, its rate file written in `folder`. */
export async function liveEnv(chain: TestChain, folder: string): Promise<Record<string, string>> {
  const rateSources = join(folder, 'rates.json');
  // BTC too, though no network taken pays in it: the sandbox this replaced started with the same file.
  const rates = { sources: [{ id: 'desk', kind: 'fixed', pairs: { 'ETH/VND': '92000000', 'USDT/VND': '26350', 'BTC/VND': '2600000000' } }], assets: { ETH: {}, USDT: {}, BTC: {} } };
  await writeFile(rateSources, JSON.stringify(rates));
  return {
    GATEWAY_ENV: 'live',
    NETWORKS: 'ETHEREUM',
    ETHEREUM_RPC_URL: chain.rpcUrl,
    ETHEREUM_USDT_CONTRACT: chain.token,
    ETHEREUM_POLL_MS: '200',
    RATE_SOURCES: rateSources,
    GATEWAY_DATA_KEY: '5d2e8a1f7c3b9e4d6a0f8c2b5e7d1a3f9c4b6e8d0a2f5c7b3e9d1a4f6c8b0e2d',
    PAYOUT_HD_SEED: '11'.repeat(32),
  };
}
