// No one-time address twice, whatever was restored (docs/operations.md, "Back up and restore"). The chain cannot tell
// (an address shown to a customer who has not paid is on no chain), so the gateway notices that its database is older
// than what it handed out, two ways:
// - the database's identity (storage/address-guard.ts): a pg_dump restored into another cluster or database, or with
//   pg_restore --clean, is another system identifier or another payments table; a promoted standby is neither;
// - a marks file kept outside the database (ADDRESS_STATE_DIR; beside a PGlite folder by default): before an index is
//   handed out, the block of indexes it falls in is reserved there (written and fsynced, once a block, not once a
//   payment); a clean stop writes each counter's exact next index. A database that gives less than that (a PGlite
//   folder copied back, a restore of any kind) is a restore; after a crash, less than the last block's first index is.
// On a restore every counter moves past what may have been handed out (past the reserved block, plus the margin:
// ADDRESS_RESTORE_MARGIN), and, where a network is on a node, past every address the chain shows used beyond that
// (address-scan.ts), in one log line, and the start goes on. A plain restart moves nothing and asks no node.
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayConfig } from '../../config.js';
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import type { Database } from '../../storage/database.js';
import { addressCounters, currentIdentity, moveCounter, recordedIdentity, recordIdentity } from '../../storage/address-guard.js';
import type { AddressScan, ScanOutcome } from './address-scan.js';

/**
 * The marks file of a configuration: in ADDRESS_STATE_DIR, else beside the PGlite folder (a folder copied back leaves
 * it). On PostgreSQL a PGLITE_DIR names no store (the image sets one for its volume), so it names no marks file either.
 */
export function marksFile(config: Pick<GatewayConfig, 'addresses' | 'dataDir' | 'databaseUrl'>): string | undefined {
  if (config.addresses.stateDir) return join(config.addresses.stateDir, 'address-marks.json');
  return config.dataDir && !config.databaseUrl ? `${config.dataDir.replace(/[/\\]+$/, '')}.address-marks.json` : undefined;
}

/** Indexes reserved at once in the marks file: one write per this many addresses of a counter. */
export const RESERVATION_BLOCK = 20;

/** The marks file: per counter, the first index of the last block reserved and the block's end (exclusive). */
interface Marks {
  /** Written by a clean stop: `next` is then each counter's exact next index. */
  clean: boolean;
  counters: Record<string, { from: number; to: number; next?: number }>;
}

export interface RestoreFound {
  reason: string;
  moved: { counter: string; from: number; to: number }[];
  /** The chain scan past the margin, where a network is on a node (address-scan.ts). */
  scan?: ScanOutcome;
}

export class AddressGuard {
  #marks: Marks = { clean: false, counters: {} };
  /** One write at a time, in order: a block is on disk before its first index is handed out. */
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Where the marks file is; none: the database's identity alone. */
    private readonly file: string | undefined,
    private readonly margin: number,
    /** Asks the nodes, on a restore, which addresses past the margin were used. */
    private readonly scan?: AddressScan,
  ) {}

  /** At start, before any address is handed out: finds a restore and moves every counter past it. */
  async start(): Promise<RestoreFound | undefined> {
    const marks = this.file ? await readMarks(this.file) : undefined;
    const found = await this.db.transaction(async (tx) => {
      // One process at a time checks (the row's lock), so two starting together move the counters once.
      await tx.query('LOCK TABLE address_guard IN EXCLUSIVE MODE');
      const identity = await currentIdentity(tx);
      const recorded = await recordedIdentity(tx);
      const counters = await addressCounters(tx);
      const reasons: string[] = [];
      if (recorded && recorded.system_identifier !== identity.system_identifier) reasons.push('the database cluster is another one (system identifier)');
      else if (recorded && recorded.payments_oid !== identity.payments_oid) reasons.push('the database was restored into its cluster (payments table recreated)');
      if (marks) {
        const behind = counters.filter((c) => {
          const mark = marks.counters[c.counter];
          return mark && c.next < (marks.clean ? (mark.next ?? mark.from) : mark.from);
        });
        if (behind.length) reasons.push(`the database gives indexes below those already handed out (${behind.map((c) => c.counter.split(':')[0]).join(', ')})`);
      }
      await recordIdentity(tx, identity, this.clock.now().toISOString());
      if (!reasons.length) return { counters, found: undefined };
      const moved = counters.map((c) => ({ counter: c.counter, from: c.next, to: Math.max(c.next, marks?.counters[c.counter]?.to ?? 0) + this.margin }));
      // Past what the chain shows used beyond the margin too, still under the lock: no process hands out an address
      // before the scan has ended (it is bounded in time).
      const scan = this.scan?.possible ? await this.scan.scan(counters.map((c, i) => ({ ...c, next: moved[i]!.to }))) : undefined;
      for (const further of scan?.moved ?? []) moved.find((m) => m.counter === further.counter)!.to = further.to;
      for (const move of moved) await moveCounter(tx, move.counter, move.to);
      return { counters: moved.map((m) => ({ counter: m.counter, next: m.to })), found: { reason: reasons.join('; '), moved, scan } };
    });
    if (found.found) {
      const { reason, moved, scan } = found.found;
      const scanned = !scan ? '' : scan.unfinished ? `; the chain scan did not finish (${scan.unfinished}): what it had not reached keeps the margin alone` : '; and past every address the chain shows used';
      log.warn({ event: 'address_restore', reason, margin: this.margin, moved, scan }, `restore found: every address index moved past what may have been handed out${scanned}`);
    }
    // Running: until a clean stop, only the blocks reserved count.
    this.#marks = { clean: false, counters: Object.fromEntries(found.counters.map((c) => [c.counter, { from: c.next, to: c.next }])) };
    if (marks) for (const [counter, mark] of Object.entries(marks.counters)) this.#marks.counters[counter] ??= { from: mark.from, to: mark.to };
    await this.#write();
    return found.found;
  }

  /** Before `index` of `counter` is handed out: reserves its block in the marks file when it is past the last one. */
  async taking(counter: string, index: number): Promise<void> {
    if (!this.file) return;
    const mark = this.#marks.counters[counter];
    // Within the block: on disk once the write that reserved it (perhaps still under way for another index) is.
    if (mark && index < mark.to) return this.#writing;
    this.#marks.counters[counter] = { from: index, to: index + RESERVATION_BLOCK };
    try {
      await this.#write();
    } catch (error) {
      // Not on disk: the next index tries again (this one is not handed out: its transaction fails).
      if (mark) this.#marks.counters[counter] = mark;
      else delete this.#marks.counters[counter];
      throw error;
    }
  }

  /** At a clean stop, once no address is handed out any more: each counter's exact next index. */
  async stop(): Promise<void> {
    if (!this.file) return;
    const counters = await addressCounters(this.db);
    for (const c of counters) {
      const mark = (this.#marks.counters[c.counter] ??= { from: c.next, to: c.next });
      mark.next = c.next;
    }
    this.#marks.clean = true;
    await this.#write();
  }

  #write(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const text = JSON.stringify(this.#marks);
    // After the write before it, failed or not: one failure does not fail every write after it.
    this.#writing = this.#writing.catch(() => undefined).then(() => writeDurably(file, text));
    return this.#writing;
  }
}

async function readMarks(file: string): Promise<Marks | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Marks;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`The address marks file ${file} cannot be read (${(error as Error).message}): move it away only if this database never handed out an address`, { cause: error });
  }
}

/** Written to a file beside, fsynced, renamed over: a crash leaves the old marks or the new, never half. */
async function writeDurably(file: string, text: string): Promise<void> {
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
