// The check of the environment's names against the gateway's (variables.ts, whose nearest-name search it runs with the
// assets the networks take): a variable that looks like the gateway's and is not one of its names is refused in live
// (config.ts) and warned about in the sandbox (start.ts, merchants-command.ts), so a misspelling is never ignored.
import { networksFrom, networksTaken } from '../chains/configuration.js';
import type { NetworkSpec } from '../chains/networks.js';
import { RATE_VARIABLE_PREFIX, unknownVariables, type UnknownVariable } from '../variables.js';

/**
 * The variables of `env` that look like the gateway's and are not (variables.ts): refused in live, warned about in the
 * sandbox (start.ts, merchants-command.ts). The assets are the networks' (SANDBOX_RATE_<ASSET>), those of `env` when
 * not given.
 */
export function variablesUnknown(env: NodeJS.ProcessEnv, networks?: readonly NetworkSpec[]): UnknownVariable[] {
  return unknownVariables(env, networks ? assetsOf(networks) : rateAssetsRead(env));
}

const assetsOf = (networks: readonly NetworkSpec[]): string[] => [...new Set(networks.flatMap((n) => n.assets.map((a) => a.asset)))];

/**
 * The assets of the networks `env` configures, for a command that reads no network (the merchants command). When they
 * cannot be read (the gateway's start refuses that, saying why), every SANDBOX_RATE_<ASSET> of `env` is taken for one:
 * the check names no rate variable it cannot judge.
 */
function rateAssetsRead(env: NodeJS.ProcessEnv): string[] {
  try {
    return assetsOf(networksTaken(networksFrom(env), env.NETWORKS).networks);
  } catch {
    return Object.keys(env).filter((name) => name.startsWith(RATE_VARIABLE_PREFIX)).map((name) => name.slice(RATE_VARIABLE_PREFIX.length));
  }
}

/** The one line a variable unknown to the gateway is said in: refused in live, warned about in the sandbox. */
export function unknownVariableLine({ name, nearest }: UnknownVariable): string {
  return `${name} is not a variable the gateway reads (the nearest it reads: ${nearest}): a misspelled one would be ignored without a word (docs/operations.md, "Configure")`;
}
