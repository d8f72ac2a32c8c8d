// What a start refuses in a value that reads well (config.ts reads the values): in live, anything of the sandbox's,
// whose every value is public (docs/operations.md, "Going live"), and a data key too weak to seal the merchants'
// secrets; in the sandbox, a credential that names live.
import { DEFAULT_SANDBOX_SEED_HEX } from '../../codecs/addresses.js';
import { NETWORK_FAMILIES } from '../../contract/assets.js';
import type { NetworkSpec } from '../chains/networks.js';
import { environmentOf } from '../services/merchant/credentials.js';
import { xpubVariable, type ConfigVariable, type EnvOf, type RateVariable } from '../variables.js';
import { SANDBOX_DATA_KEY, SANDBOX_PAYOUT_SEED_HEX, SANDBOX_WALLET_SEED_HEX } from './public-keys.js';

/** What the refusals read: the names of variables.ts only. */
type GatewayEnv = EnvOf<ConfigVariable | RateVariable>;

/** Seeds written in this repository: whatever they sign or receive, anyone can spend. */
const PUBLIC_SEEDS = [DEFAULT_SANDBOX_SEED_HEX, SANDBOX_WALLET_SEED_HEX, SANDBOX_PAYOUT_SEED_HEX];
const SANDBOX_CREDENTIAL_VARIABLES = ['SANDBOX_CLIENT_ID', 'SANDBOX_CLIENT_SECRET', 'SANDBOX_MERCHANT_KEY'] as const;
/** Variables that act on the sandbox merchant or on the sandbox's own tools: in live there are neither. */
const SANDBOX_ONLY: [name: ConfigVariable, refused: (value: string) => boolean, why: string][] = [
  ['SANDBOX_CLIENT_ID', () => true, 'live has no sandbox merchant, and takes no merchant from the environment'],
  ['SANDBOX_CLIENT_SECRET', () => true, 'live has no sandbox merchant, and takes no merchant from the environment'],
  ['SANDBOX_MERCHANT_KEY', () => true, 'live has no sandbox merchant, and takes no merchant from the environment'],
  ['SANDBOX_HD_SEED', () => true, "live holds no receiving private key: addresses derive from each merchant's extended public keys"],
  ['SANDBOX_WALLET_SEED', () => true, 'live has no test wallet'],
  ['SANDBOX_WEBHOOK_URL', () => true, "it is the sandbox merchant's endpoint, and live has no sandbox merchant"],
  ['SANDBOX_SECRETLESS_SIGN_IN', (value) => value === '1', 'it signs in as the sandbox merchant, and live has none'],
  ['SANDBOX_ALLOW_LOCAL_WEBHOOKS', (value) => value === '1', "it lets webhooks reach this machine's own ports (the demo's receiver)"],
  ['SANDBOX_CHAIN', (value) => value === 'anvil', 'a development node the gateway starts itself is the sandbox\'s; live watches the nodes it is given'],
];

/**
 * What GATEWAY_ENV=live refuses to start with, one line each (DESIGN section 10): a network not on a node, the sandbox's
 * merchant, tools or public keys, a key it needs missing. Every value of the sandbox is public, so a live gateway that
 * took one would take real money anyone could spend, or seal secrets anyone could open.
 */
export function liveRefusals(env: GatewayEnv, networks: readonly NetworkSpec[]): string[] {
  const given = (name: ConfigVariable | RateVariable) => (env[name] ? env[name] : undefined);
  const problems: string[] = [];
  for (const network of networks) {
    if (network.source.kind === 'simulated') {
      problems.push(`${network.id} is simulated: live watches every network on a node; configure one for it (docs/networks.md) or leave it out of NETWORKS`);
    } else if (network.source.dev) {
      problems.push(`${network.id} is a development node (dev in EVM_NETWORKS): live never funds or mines on a node it watches`);
    }
  }
  for (const [name, refused, why] of SANDBOX_ONLY) {
    const value = given(name);
    if (value !== undefined && refused(value)) problems.push(`${name} is set, which live refuses: ${why}`);
  }
  for (const name of NETWORK_FAMILIES.map(xpubVariable)) {
    if (given(name) !== undefined) problems.push(`${name} is set, which live refuses: receiving keys are per merchant in live (npm run merchants -- set-xpub)`);
  }
  problems.push(...liveDataKeyRefusals(env));
  const payoutSeed = given('PAYOUT_HD_SEED');
  if (payoutSeed === undefined) problems.push('PAYOUT_HD_SEED is required in live: each merchant\'s payout wallet, which pays its refunds on chain, derives from it, and the sandbox\'s seed is public');
  else if (PUBLIC_SEEDS.includes(payoutSeed.toLowerCase())) problems.push('PAYOUT_HD_SEED is a public sandbox seed: anyone could spend the payout wallets\' coins');
  if (given('RATE_SOURCES') === undefined) {
    problems.push('RATE_SOURCES is required in live: the sandbox\'s rates are made up; name the sources (a "fixed" one is taken as the operator\'s choice; docs/rates.md)');
  }
  return problems;
}

/** The sandbox merchant's credentials as given: any shape but one that names live, which the sandbox would refuse at every request. */
export function sandboxCredentialRefusals(env: GatewayEnv): string[] {
  return SANDBOX_CREDENTIAL_VARIABLES.flatMap((name) => {
    const named = env[name] ? environmentOf(env[name]) : undefined;
    return named?.environment === 'live'
      ? [`${name} begins ${named.prefix}, which names a live credential: the sandbox refuses every one by its prefix (docs/security.md, "Credentials name their environment"); give it a sandbox one`]
      : [];
  });
}

/** The live data key's refusals: it seals the merchants' secrets, so it is the operator's own. */
export function liveDataKeyRefusals(env: GatewayEnv): string[] {
  const dataKey = env.GATEWAY_DATA_KEY || undefined;
  if (dataKey === undefined) return ["GATEWAY_DATA_KEY is required in live: it seals the merchants' secrets, and the sandbox's key is public"];
  if (dataKey === SANDBOX_DATA_KEY) return ['GATEWAY_DATA_KEY is the public sandbox key: anyone could open the secrets it seals'];
  const bytes = Math.floor(keyEntropyBits(dataKey) / 8);
  return bytes < LIVE_DATA_KEY_BYTES
    ? [`GATEWAY_DATA_KEY holds about ${bytes} bytes of entropy, and live requires ${LIVE_DATA_KEY_BYTES}: \`openssl rand -base64 32\` makes one (docs/operations.md, "Going live")`]
    : [];
}

/** The entropy a live data key must hold at least, in bytes (as many as the key it derives). */
export const LIVE_DATA_KEY_BYTES = 32;

/**
 * An upper estimate of a key's entropy, in bits: its length times the bits of the alphabet it draws from (hex, or the
 * classes of characters it uses: lower case, upper case, digits, the rest of printable ASCII), and none for a key of
 * fewer than 8 distinct characters (a repeated pattern). A random key passes (`openssl rand -hex 32`: 256 bits,
 * `-base64 32`: 264); a sentence does not (lower case and spaces: under 5 bits a character).
 */
export function keyEntropyBits(key: string): number {
  const characters = [...key];
  if (new Set(characters).size < 8) return 0;
  let alphabet = 0;
  if (/^[0-9a-f]+$/i.test(key)) alphabet = 16;
  else {
    if (/[a-z]/.test(key)) alphabet += 26;
    if (/[A-Z]/.test(key)) alphabet += 26;
    if (/[0-9]/.test(key)) alphabet += 10;
    if (/[^a-zA-Z0-9]/.test(key)) alphabet += 33;
  }
  return characters.length * Math.log2(alphabet);
}
