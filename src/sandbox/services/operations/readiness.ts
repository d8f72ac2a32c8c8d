// What /healthz and /readyz say (docs/operations.md, "Observe"). Ready: the database answers, its migrations are those
// this version ships, and the data key opens the canary; not ready from the moment a stop begins. Each network's lag
// is reported beside, and fails only that network (it takes no new payments), never readiness.
import type { ChainNetwork } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { firstLine } from '../../logging.js';
import type { Sealer } from '../../secrets.js';
import type { Database } from '../../storage/database.js';
import { appliedMigrations, readCanary } from '../../storage/operations.js';
import type { SandboxControls } from '../sandbox/sandbox-controls.js';
import { opensCanary } from './data-keys.js';

/** Readiness answers within a second: a check that has not answered by then has failed. */
const CHECK_MS = 900;

export interface Check {
  ok: boolean;
  detail?: string;
}

export interface NetworkHealth {
  network: string;
  /** The chain is seen (a node answers): payments are taken on it. */
  available: boolean;
  /** Height followed to. */
  height: number;
  /** When a gateway process last saw the chain in full, and how long ago. */
  synced_at: string | null;
  lag_seconds: number | null;
}

export interface Readiness {
  ready: boolean;
  stopping: boolean;
  checks: { database: Check; migrations: Check; data_key: Check };
  networks: NetworkHealth[];
}

export class Health {
  #stopping = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    private readonly sandboxControls: SandboxControls,
    /** The migrations this version ships (storage/migrate.ts). */
    private readonly migrations: readonly string[],
  ) {}

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Readiness is false from now on: load balancers stop sending while the process finishes what it has. */
  stop(): void {
    this.#stopping = true;
  }

  async readiness(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_MS} ms`)), CHECK_MS)));
    const within = <T>(work: Promise<T>) => Promise.race([work, late]);
    const [applied, canary, chain] = await Promise.allSettled([within(appliedMigrations(this.db)), within(readCanary(this.db)), within(this.sandboxControls.chainState())]);
    clearTimeout(timer);
    const failed = (result: PromiseSettledResult<unknown>) => (result.status === 'rejected' ? firstLine(result.reason) : undefined);
    const database: Check = applied.status === 'fulfilled' ? { ok: true } : { ok: false, detail: failed(applied) };
    const migrations = applied.status === 'fulfilled' ? this.#migrations(applied.value) : { ok: false, detail: 'unknown: the database did not answer' };
    const dataKey: Check =
      canary.status === 'rejected' ? { ok: false, detail: 'unknown: the database did not answer' } : dataKeyCheck(this.sealer, canary.value);
    const now = this.clock.now().getTime();
    const networks = chain.status === 'fulfilled' ? chain.value.networks.map((n) => networkHealth(n, now)) : [];
    const checks = { database, migrations, data_key: dataKey };
    return { ready: !this.#stopping && database.ok && migrations.ok && dataKey.ok, stopping: this.#stopping, checks, networks };
  }

  #migrations(applied: string[]): Check {
    const missing = this.migrations.filter((name) => !applied.includes(name));
    const unknown = applied.filter((name) => !this.migrations.includes(name));
    if (missing.length) return { ok: false, detail: `not applied: ${missing.join(', ')}` };
    // A newer version's migrations keep what this one reads (docs/operations.md, "Upgrade"): this process stays ready.
    if (unknown.length) return { ok: true, detail: `also applied, by a newer version: ${unknown.join(', ')}` };
    return { ok: true };
  }
}

/** Ready when a key of this process opens the canary; a rotation still waiting is said beside (data-keys.ts). */
function dataKeyCheck(sealer: Sealer, canary: string | undefined): Check {
  if (!opensCanary(sealer, canary)) return { ok: false, detail: 'GATEWAY_DATA_KEY does not open the canary the database holds' };
  if (sealer.keyOf(canary!) === 0) return { ok: true };
  return {
    ok: true,
    detail:
      'a rotation waits: the secrets are sealed with a key of GATEWAY_DATA_KEYS_PREVIOUS, and are sealed again with GATEWAY_DATA_KEY once every live process holds it (keep GATEWAY_DATA_KEYS_PREVIOUS until then)',
  };
}

function networkHealth(network: ChainNetwork, now: number): NetworkHealth {
  const syncedAt = network.synced_at ? Date.parse(network.synced_at) : undefined;
  return {
    network: network.network,
    available: network.available,
    height: network.tip,
    synced_at: network.synced_at,
    lag_seconds: syncedAt === undefined ? null : Math.max(0, (now - syncedAt) / 1000),
  };
}
