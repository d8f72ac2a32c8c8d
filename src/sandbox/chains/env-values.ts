// Reading a network's values from the environment, for every family's configuration (chains/configuration.ts,
// chains/tron/configuration.ts): a bad value is refused in one line naming the variable and the rule.
import type { ChainVariable, EnvOf } from '../variables.js';
import type { NodeSource } from './networks.js';

/** A node is asked for news this often, and given this long to answer. */
export const DEFAULT_POLL_MS = 1_000;
export const DEFAULT_TIMEOUT_MS = 2_000;
/** Ethereum's blocks are final after two epochs (64 slots): paid payments' blocks are re-checked that deep. */
export const DEFAULT_FINALITY_BLOCKS = 64;

export function nodeSource(name: string, rpcUrl: string, options: Partial<Omit<NodeSource, 'kind' | 'rpcUrl'>> = {}): NodeSource {
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    throw new Error(`${name} must be an http(s) URL of a JSON-RPC node, got ${rpcUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL of a JSON-RPC node, got ${url.protocol}`);
  return {
    kind: 'node',
    rpcUrl,
    pollMs: DEFAULT_POLL_MS,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    finalityBlocks: DEFAULT_FINALITY_BLOCKS,
    dev: false,
    ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
  };
}

export function wholeNumber(env: EnvOf<ChainVariable>, name: ChainVariable, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got ${raw}`);
  return value;
}
