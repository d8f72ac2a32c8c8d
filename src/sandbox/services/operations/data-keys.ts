// The data key, at start and while running (docs/operations.md, "Rotate the data key"). Every value the database holds
// sealed (merchants' client secrets, webhook endpoints' secrets, the canary) must open with GATEWAY_DATA_KEY or one of
// GATEWAY_DATA_KEYS_PREVIOUS: otherwise the start stops and says so, where it used to start and fail each signature later.
//
// A rotation runs on processes that do not all restart at once, so no process may seal with a key another live one
// lacks. Each process beats every few seconds into gateway_processes with the fingerprints of its keys. The key in
// force is the one the canary is sealed with: every process seals with it until every live process holds the same
// GATEWAY_DATA_KEY; then each seals with that one, and once every live process says it has been sealing with it, one of
// them seals again, in one transaction, all that previous keys sealed (the canary with them). Waiting for
// the same GATEWAY_DATA_KEY everywhere, not only for every process to open it, is what keeps two processes with the
// keys swapped (the new key previous in one, current in the other) from sealing back and forth.
import { hostname } from 'node:os';
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import { randomToken, type Sealer } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { beat, processGone, readCanary, resealValue, sealedValues, writeCanary, type GatewayProcessRow } from '../../storage/operations.js';

export class DataKeyError extends Error {}

const CANARY = 'pay-checkout data key canary';
/** How often a process tells the others which keys it holds; PROCESS_GONE_SECONDS (storage) is four of them. */
const BEAT_MS = 5_000;

export class DataKeys {
  /** This process in gateway_processes: its host and pid, for the operator, and a random part, for uniqueness. */
  readonly processId = `${hostname()}/${process.pid}/${randomToken('p', 4).slice(2)}`;
  #timer: NodeJS.Timeout | undefined;
  #beating: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks that the keys open everything sealed, joins the processes on the database and takes the key in force, all
   * in one transaction; then beats every BEAT_MS unless `beating` is false (a command that ends at once).
   */
  async start({ beating = true } = {}): Promise<void> {
    await this.db.transaction(async (tx) => {
      const live = await this.#beat(tx);
      const values = await sealedValues(tx);
      const unopened = values.filter((value) => this.sealer.keyOf(value.sealed) === undefined);
      if (unopened.length) {
        const named = unopened.slice(0, 3).map((v) => `${v.kind} ${v.id}`).join(', ');
        throw new DataKeyError(
          `GATEWAY_DATA_KEY opens ${unopened.length === values.length ? 'none' : `${values.length - unopened.length}`} of the ${values.length} secrets ` +
            `this database holds sealed (${named}${unopened.length > 3 ? ', …' : ''} do not open): it is not the key they were sealed with. ` +
            'Set GATEWAY_DATA_KEY back to that key, or list that key in GATEWAY_DATA_KEYS_PREVIOUS to rotate to a new one.',
        );
      }
      // Within the start transaction: a rotation completed meanwhile is seen here, or sees this process (storage, beat).
      await this.#follow(tx, live, { starting: true, hasCanary: values.some((v) => v.kind === 'canary') });
    });
    if (!beating) return;
    this.#timer = setInterval(() => {
      this.#beating ??= this.#tick().finally(() => (this.#beating = undefined));
    }, BEAT_MS);
    this.#timer.unref();
  }

  /** Leaves gateway_processes: a rotation then waits for this process no longer. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#beating;
    await processGone(this.db, this.processId).catch((error: unknown) => log.warn({ err: error }, 'data key: leaving the list of processes failed'));
  }

  /** One beat, as the timer runs it; exposed for tests that do not wait for the timer. */
  async beatNow(): Promise<void> {
    await this.db.transaction(async (tx) => this.#follow(tx, await this.#beat(tx), { starting: false, hasCanary: true }));
  }

  async #tick(): Promise<void> {
    try {
      await this.beatNow();
    } catch (error) {
      // The database away for a moment: the next beat tells again, and the key in force stays what it was.
      log.warn({ err: error }, 'data key: the beat to the database failed');
    }
  }

  #beat(tx: Sql): Promise<GatewayProcessRow[]> {
    const [current, ...previous] = this.sealer.ids;
    return beat(tx, { process_id: this.processId, current_key: current!, previous_keys: previous, sealing_key: this.sealer.ids[this.sealer.sealing]! });
  }

  /** Takes the key in force, and completes a rotation every live process is ready for. */
  async #follow(tx: Sql, live: GatewayProcessRow[], { starting, hasCanary }: { starting: boolean; hasCanary: boolean }): Promise<void> {
    const current = this.sealer.ids[0]!;
    const canary = hasCanary ? await readCanary(tx) : undefined;
    // The canary opens with one of this process's keys (checked at start; readiness says when not, later).
    const inForce = canary === undefined ? 0 : this.sealer.keyOf(canary);
    const others = live.filter((p) => p.current_key !== current);
    const sealing = others.length ? (inForce ?? 0) : 0;
    if (sealing !== this.sealer.sealing || (starting && sealing !== 0)) {
      if (sealing === 0) log.info({ key: current }, 'data key: every live process holds GATEWAY_DATA_KEY: new secrets are sealed with it');
      else {
        log.info(
          { key: current, in_force: this.sealer.ids[sealing], waiting_for: others.map((p) => p.process_id) },
          `data key: rotation waits for ${others.length} live process${others.length === 1 ? '' : 'es'} with another GATEWAY_DATA_KEY; ` +
            'new secrets are sealed with the key in force (GATEWAY_DATA_KEYS_PREVIOUS) until every process holds this one',
        );
      }
    }
    this.sealer.sealWith(sealing);
    // At start the beat told a key before this one chose: the others must not count on it sealing with that one.
    if (starting) await this.#beat(tx);
    if (!hasCanary) await writeCanary(tx, this.sealer.seal(CANARY), this.clock.now());
    // Every live process has been sealing with this key since its last beat (this one: from now, when starting, as it
    // has sealed nothing yet): what a previous key sealed is sealed again. At start, even with the canary moved already:
    // a secret sealed by a process in the moment before it took the new key is found there.
    const sealsWith = (p: GatewayProcessRow) => (p.process_id === this.processId && starting ? this.sealer.ids[sealing] : p.sealing_key);
    const ready = sealing === 0 && live.every((p) => sealsWith(p) === current);
    if (!ready || !(starting || (inForce !== undefined && inForce > 0))) return;
    const previous = (await sealedValues(tx)).filter((value) => (this.sealer.keyOf(value.sealed) ?? 0) > 0);
    const now = this.clock.now();
    for (const value of previous) await resealValue(tx, value, this.sealer.seal(this.sealer.open(value.sealed)), now);
    if (previous.length) {
      log.info(
        { sealed_again: previous.length, key: current },
        'data key: rotated: every live process holds GATEWAY_DATA_KEY, and what previous keys sealed is sealed again with it; GATEWAY_DATA_KEYS_PREVIOUS may go',
      );
    }
  }
}

/** Whether the current keys open the canary (readiness). */
export function opensCanary(sealer: Sealer, sealed: string | undefined): boolean {
  return sealed !== undefined && sealer.keyOf(sealed) !== undefined;
}
