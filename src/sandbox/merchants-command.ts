// The operator's merchants command (DESIGN section 10; docs/operations.md, "Merchants"): `npm run merchants -- …` in
// the repository, `node dist/gateway/merchants.js …` in the image. It works on the gateway's own database, read from
// the same variables as the gateway (DATABASE_URL, or a PGlite folder no process holds: PGLITE_DIR), created and
// migrated first when new, with the gateway's GATEWAY_ENV and GATEWAY_DATA_KEY. With `--json` it prints one JSON value
// on one line and nothing else on stdout. Exit 2 for arguments it cannot take, 1 for what it cannot do, 0 when done.
import { parseArgs } from 'node:util';
import type { NetworkFamily } from '../codecs/addresses.js';
import { FAMILY_NAMES } from '../codecs/families/index.js';
import type { Environment } from '../contract/index.js';
import { systemClock } from './clock.js';
import { ConfigError, loadStoreConfig } from './config.js';
import { unknownVariableLine, variablesUnknown } from './config/unknown-variables.js';
import { GatewayError } from './errors.js';
import { configureLogging, firstLine, LOG_LEVELS, type LogLevel } from './logging.js';
import { createSealer } from './secrets.js';
import { MerchantAccounts, receivingKeyOf, type CheckedXpub, type MerchantAccount } from './services/merchant/merchant-accounts.js';
import { Merchants } from './services/merchant/merchants.js';
import { DataKeys } from './services/operations/data-keys.js';
import { openDatabase } from './storage/open.js';

export const USAGE = `Usage: npm run merchants -- <command> [--json]   (in the image: node dist/gateway/merchants.js <command>)
  add --name <name> [--xpub-evm X] [--xpub-tron X] [--xpub-bitcoin X]   a merchant; its credentials are shown once
  list                                                                  every merchant, without secrets
  disable <client_id>                                                   its tokens and sessions end; its links take no new payment
  roll-secret <client_id>                                               a new client secret, shown once; the old one ends now
  set-xpub <client_id> --evm X | --tron X | --bitcoin X                 its receiving key for that network family
The database and keys are the gateway's: DATABASE_URL or PGLITE_DIR, GATEWAY_ENV, GATEWAY_DATA_KEY.
With --json through npm, npm run --silent merchants: npm prints the script's name on stdout otherwise.`;

type Options = Record<string, { type: 'string' | 'boolean' }>;
const json = { json: { type: 'boolean' } } as const;
const xpubOptions = (prefix: string): Options => Object.fromEntries(FAMILY_NAMES.map((family) => [`${prefix}${family}`, { type: 'string' }]));

/** Each subcommand: its options, and its positional argument (the merchant's client_id) when it takes one. */
const COMMANDS: Record<string, { options: Options; clientId: boolean }> = {
  add: { options: { name: { type: 'string' }, ...xpubOptions('xpub-'), ...json }, clientId: false },
  list: { options: json, clientId: false },
  disable: { options: json, clientId: true },
  'roll-secret': { options: json, clientId: true },
  'set-xpub': { options: { ...xpubOptions(''), ...json }, clientId: true },
};

/** Arguments the command cannot take: said with the usage, exit 2. */
class UsageError extends Error {}

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

const standardStreams: Output = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/** Runs the command of `argv` (what follows `merchants`) on the database of `env`; resolves to its exit code. */
export async function runMerchantsCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, output: Output = standardStreams): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    output.err(`merchants: ${(error as Error).message}`);
    output.err(USAGE);
    return 2;
  }
  try {
    const config = loadStoreConfig(env);
    // Live refused these in loadStoreConfig; the sandbox says each, as its gateway does, and goes on.
    if (config.environment === 'sandbox') for (const unknown of variablesUnknown(env)) output.err(`merchants: warning: ${unknownVariableLine(unknown)}`);
    // Before the database is opened: a key that cannot be taken is an argument refused, whoever holds the folder.
    const keys = xpubsOf(parsed, config.environment);
    const level = LOG_LEVELS.find((name) => name === env.LOG_LEVEL) ?? 'warn';
    await configureLogging(level as LogLevel, 'json');
    const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, limits: config.databaseLimits });
    try {
      const sealer = createSealer(config.dataKey, config.previousDataKeys);
      // The gateway's own key, or what this writes the gateway cannot open: the same check as its start, and the key in
      // force while a rotation waits.
      const dataKeys = new DataKeys(db, sealer, systemClock);
      await dataKeys.start({ beating: false });
      try {
        const accounts = new MerchantAccounts(db, systemClock, new Merchants(db, sealer, systemClock, config.environment), config.environment);
        const answer = await perform(accounts, parsed, keys);
        output.out(parsed.json ? JSON.stringify(answer.value) : answer.text);
        return 0;
      } finally {
        await dataKeys.stop();
      }
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.problems) output.err(`merchants: ${line}`);
      return 1;
    }
    output.err(`merchants: ${firstLine(error)}`);
    return error instanceof GatewayError && error.kind === 'invalid' ? 2 : 1;
  }
}

interface Parsed {
  command: string;
  clientId?: string;
  values: Record<string, string | boolean | undefined>;
  json: boolean;
}

function parse(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('a command is required: add, list, disable, roll-secret or set-xpub');
  const spec = COMMANDS[command];
  if (!spec) throw new UsageError(`${command} is not a command: add, list, disable, roll-secret or set-xpub`);
  let values: Parsed['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...rest], options: spec.options, allowPositionals: true, strict: true }));
  } catch (error) {
    // node:util says which option, and how it was wrong (its advice on positionals that start with `-` left out).
    throw new UsageError(`${command}: ${(error as Error).message.replace(/\. To specify a positional[\s\S]*$/, '')}`);
  }
  if (spec.clientId && positionals.length !== 1) throw new UsageError(`${command} takes one <client_id>, the merchant's ClientId (got ${positionals.length})`);
  if (!spec.clientId && positionals.length) throw new UsageError(`${command} takes no ${positionals.length === 1 ? 'argument' : 'arguments'} besides its options (got ${positionals.join(' ')})`);
  if (command === 'add' && (typeof values.name !== 'string' || !values.name.trim())) throw new UsageError('add: --name <name> is required, the merchant\'s name');
  if (command === 'set-xpub' && FAMILY_NAMES.filter((family) => values[family] !== undefined).length !== 1) {
    throw new UsageError('set-xpub: exactly one of --evm, --tron or --bitcoin is required, with the account\'s extended public key');
  }
  return { command, clientId: positionals[0], values, json: values.json === true };
}

/** The xpubs given (`--xpub-<family>` to add, `--<family>` to set-xpub), each checked, with the argument it came in. */
function xpubsOf({ command, values }: Parsed, environment: Environment): CheckedXpub[] {
  const prefix = command === 'add' ? 'xpub-' : '';
  return FAMILY_NAMES.flatMap((family: NetworkFamily) => {
    const xpub = values[`${prefix}${family}`];
    return typeof xpub === 'string' ? [receivingKeyOf({ family, xpub, argument: `--${prefix}${family}` }, environment)] : [];
  });
}

async function perform(accounts: MerchantAccounts, { command, clientId, values }: Parsed, keys: CheckedXpub[]): Promise<{ value: unknown; text: string }> {
  switch (command) {
    case 'add': {
      const added = await accounts.add(values.name as string, keys);
      const value = { merchant_id: added.merchant_id, client_id: added.client_id, client_secret: added.client_secret, merchant_key: added.merchant_key };
      return {
        value,
        text: [
          `Merchant ${added.merchant_id} added. Its credentials, shown this once (the secret and the key are kept hashed):`,
          `  ClientId        ${added.client_id}`,
          `  Client Secret   ${added.client_secret}`,
          `  Merchant Key    ${added.merchant_key}`,
        ].join('\n'),
      };
    }
    case 'list': {
      const merchants = await accounts.list();
      return { value: merchants, text: merchants.length ? merchants.map(describe).join('\n') : 'No merchants yet: npm run merchants -- add --name <name>' };
    }
    case 'disable': {
      const merchant = await accounts.disable(clientId!);
      return { value: merchant, text: `Disabled: ${describe(merchant)}` };
    }
    case 'roll-secret': {
      const rolled = await accounts.rollSecret(clientId!);
      return { value: rolled, text: `New client secret of ${rolled.client_id}, shown this once (the old one has ended, and its tokens):\n  Client Secret   ${rolled.client_secret}` };
    }
    default: {
      const merchant = await accounts.setXpub(clientId!, keys[0]!);
      return { value: merchant, text: describe(merchant) };
    }
  }
}

function describe(m: MerchantAccount): string {
  const keys = Object.entries(m.xpubs).map(([family, xpub]) => `${family} ${xpub}`);
  return `${m.client_id}  ${m.merchant_id}  ${m.name}  ${m.disabled_at ? `disabled ${m.disabled_at}` : 'enabled'}  keys: ${keys.length ? keys.join(', ') : 'none'}`;
}
