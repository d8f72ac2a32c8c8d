// Where each asset's VND rate comes from (docs/rates.md): the sandbox's fixed rates by default (SANDBOX_RATE_<ASSET>,
// else a network file's `rate_vnd`, else the sandbox's own), or the sources and rules of the JSON file RATE_SOURCES
// names. Checked at start: a bad value is refused in one line naming it.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { parseDecimal } from '../../codecs/amounts.js';
import { fieldErrors, type AssetCode } from '../../contract/index.js';
import { ASSET_CODE } from '../../contract/assets.js';
import type { NetworkSpec } from '../chains/networks.js';
import type { RateEnv } from '../variables.js';
import { MAX_BYTES, RATE_SOURCE_KINDS, type Pair, type RateSourceSpec } from './sources.js';

/**
 * The guards of one pair: how many fresh sources it needs, how far from their median one may be, and how far one
 * source's price may move from its last in one answer before it is held back (DEFAULT_MAX_JUMP_BPS unless set).
 */
export interface PairGuards {
  quorum: number;
  max_deviation_bps: number;
  max_jump_bps?: number;
}

/** A move of more than 20% in one poll is not a market: a glitch, or a source steered. */
export const DEFAULT_MAX_JUMP_BPS = 2_000;

/** How an asset's VND rate is made: the product of its legs' medians, ASSET/VND alone or ASSET/USD × USD/VND. */
export interface AssetRule {
  legs: Pair[];
  /** The customer's rate is the market rate less this, in basis points. */
  spread_bps: number;
  /** The market rate (VND per unit) outside these is no rate at all: decimal strings, each optional. */
  min?: string;
  max?: string;
}

export interface RateSettings {
  sources: RateSourceSpec[];
  assets: Record<AssetCode, AssetRule>;
  pairs: Record<Pair, PairGuards>;
}

/** The sandbox's market rates in VND per unit. */
const DEFAULT_RATES: Record<AssetCode, string> = { USDT: '26350', ETH: '92000000', BTC: '2600000000' };

/** Within the bounds a source's price is read at (rates/sources.ts): 15 digits, 18 places. */
const POSITIVE_DECIMAL = /^(?!0+(\.0+)?$)\d{1,15}(\.\d{1,18})?$/;

/** Every configured asset's rule and the sources they read: from RATE_SOURCES, else the sandbox's fixed rates. */
export function ratesFrom(env: RateEnv, networks: readonly NetworkSpec[], spreadBps: number): RateSettings {
  const assets = [...new Set(networks.flatMap((n) => n.assets.map((a) => a.asset)))];
  if (env.RATE_SOURCES) {
    const given = assets.filter((asset) => env[`SANDBOX_RATE_${asset}`]);
    if (given.length) throw new Error(`SANDBOX_RATE_${given[0]} is set, but so is RATE_SOURCES: give fixed rates as a "fixed" source in that file`);
    return rateSourcesFile(env.RATE_SOURCES, assets, spreadBps);
  }
  const pairs: Record<Pair, string> = {};
  for (const asset of assets) {
    const rate = env[`SANDBOX_RATE_${asset}`] || networks.flatMap((n) => n.assets).find((a) => a.asset === asset && a.rate_vnd)?.rate_vnd || DEFAULT_RATES[asset];
    if (!rate) throw new Error(`${asset} has no rate: set SANDBOX_RATE_${asset} (VND per ${asset}), its rate_vnd in EVM_NETWORKS, or a rule in RATE_SOURCES`);
    if (!POSITIVE_DECIMAL.test(rate)) throw new Error(`SANDBOX_RATE_${asset} must be a positive decimal number of VND, got ${rate}`);
    pairs[`${asset}/VND`] = rate;
  }
  return {
    sources: [{ id: 'fixed', kind: 'fixed', pairs, poll_ms: 0, timeout_ms: 0, stale_after_ms: null }],
    assets: Object.fromEntries(assets.map((asset) => [asset, { legs: [`${asset}/VND`], spread_bps: spreadBps }])),
    pairs: Object.fromEntries(Object.keys(pairs).map((pair) => [pair, { quorum: 1, max_deviation_bps: 10_000 }])),
  };
}

const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.int('must be a whole number').check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`));
const CODE = /^[A-Z][A-Z0-9]{1,11}$/;
const pair = z.string().check(z.refine((value) => value.split('/').length === 2 && value.split('/').every((code) => CODE.test(code)), 'must be a pair such as ETH/USD'));
const Source = z.object({
  id: z.string('must be a name').check(z.regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/, 'must be lower-case letters, digits, -, _ and ., such as binance')),
  kind: z.enum(RATE_SOURCE_KINDS, `must be one of ${RATE_SOURCE_KINDS.join(', ')}`),
  url: z.optional(z.string().check(z.refine((value) => /^https?:\/\/[^/?#\s]+/.test(value), 'must be an http(s) URL'))),
  pairs: z.record(pair, z.string('must be a string').check(z.minLength(1, 'must not be empty'))),
  poll_ms: z._default(whole(1_000), 30_000),
  timeout_ms: z._default(whole(100, 60_000), 5_000),
  stale_after_ms: z.optional(whole(1_000)),
  max_bytes: z._default(whole(1_024, 1_048_576), MAX_BYTES),
});
const Guards = { quorum: z.optional(whole(1)), max_deviation_bps: z.optional(whole(0, 10_000)), max_jump_bps: z.optional(whole(0, 1_000_000)) };
const bound = z.optional(z.string('must be a decimal string such as "20000000"').check(z.regex(POSITIVE_DECIMAL, 'must be a positive decimal string of VND such as "20000000"')));
const RateSourcesFile = z.object({
  sources: z.array(Source).check(z.minLength(1, 'must name at least one source')),
  assets: z.record(z.string().check(z.regex(ASSET_CODE, 'must be an asset code such as USDT')), z.object({ via: z.optional(z.string().check(z.regex(CODE, 'must be a currency code such as USD'))), spread_bps: z.optional(whole(0, 9_999)), min: bound, max: bound })),
  pairs: z._default(z.record(pair, z.object(Guards)), {}),
  ...Guards,
});

/** RATE_SOURCES: a JSON file of sources and rules (docs/rates.md shows one). */
function rateSourcesFile(path: string, assets: readonly AssetCode[], spreadBps: number): RateSettings {
  const name = `RATE_SOURCES (${path})`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${name} could not be read as JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = RateSourcesFile.safeParse(json);
  if (!parsed.success) {
    const first = fieldErrors(parsed.error)[0]!;
    throw new Error(`${name}: [${first.path}] ${first.message}`);
  }
  const file = parsed.data;
  const sources = file.sources.map((s, i): RateSourceSpec => {
    const at = `${name}: [sources.${i}]`;
    if (file.sources.findIndex((other) => other.id === s.id) !== i) throw new Error(`${at}.id ${s.id} is named twice`);
    if (s.kind === 'fixed') {
      const bad = Object.entries(s.pairs).find(([, value]) => !POSITIVE_DECIMAL.test(value));
      if (bad) throw new Error(`${at}.pairs.${bad[0]} must be a positive decimal string for a fixed source, got ${bad[1]}`);
    } else if (!s.url) throw new Error(`${at}.url is required for a ${s.kind} source`);
    if (s.kind === 'coingecko') {
      const bad = Object.entries(s.pairs).find(([, where]) => !/^[a-z0-9-]+\.[a-z]+$/.test(where));
      if (bad) throw new Error(`${at}.pairs.${bad[0]} must be a CoinGecko coin id and currency such as ethereum.usd, got ${bad[1]}`);
    }
    return {
      id: s.id,
      kind: s.kind,
      url: s.url,
      pairs: s.pairs,
      poll_ms: s.poll_ms,
      timeout_ms: s.timeout_ms,
      stale_after_ms: s.kind === 'fixed' ? null : (s.stale_after_ms ?? 4 * s.poll_ms),
      max_bytes: s.max_bytes,
    };
  });
  const rules: Record<AssetCode, AssetRule> = {};
  const pairs: Record<Pair, PairGuards> = {};
  for (const asset of assets) {
    const rule = file.assets[asset];
    if (!rule) throw new Error(`${name}: [assets] has no rule for ${asset}, which a network takes`);
    const legs = rule.via ? [`${asset}/${rule.via}`, `${rule.via}/VND`] : [`${asset}/VND`];
    for (const leg of legs) {
      const guards = {
        quorum: file.pairs[leg]?.quorum ?? file.quorum ?? 1,
        max_deviation_bps: file.pairs[leg]?.max_deviation_bps ?? file.max_deviation_bps ?? 300,
        max_jump_bps: file.pairs[leg]?.max_jump_bps ?? file.max_jump_bps ?? DEFAULT_MAX_JUMP_BPS,
      };
      const offered = sources.filter((s) => leg in s.pairs).length;
      if (offered < guards.quorum) throw new Error(`${name}: ${asset}'s rule needs ${leg} from ${guards.quorum} source${guards.quorum > 1 ? 's' : ''}, and ${offered} give${offered === 1 ? 's' : ''} it`);
      pairs[leg] = guards;
    }
    const places = Math.max(...[rule.min, rule.max].map((bound) => bound?.split('.')[1]?.length ?? 0));
    if (rule.min && rule.max && parseDecimal(rule.min, places) > parseDecimal(rule.max, places)) throw new Error(`${name}: [assets.${asset}] min ${rule.min} is above max ${rule.max}`);
    rules[asset] = { legs, spread_bps: rule.spread_bps ?? spreadBps, ...(rule.min && { min: rule.min }), ...(rule.max && { max: rule.max }) };
  }
  return { sources, assets: rules, pairs };
}

