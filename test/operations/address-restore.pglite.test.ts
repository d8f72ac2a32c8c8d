// A PGlite folder copied back (docs/operations.md, "Back up and restore"): the gateway stopped, its folder copied, more
// addresses handed out (one paid), the old folder copied back in place, a start: the marks file beside the folder
// (written before each block of indexes is handed out) moves every index past them, and no address comes twice; plain
// restarts go on from the next index. Also: an unreadable marks file stops the start, saying what to do.
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../src/sandbox/clock.js';
import { AddressGuard, marksFile } from '../../src/sandbox/services/merchant/address-guard.js';
import { restoreScenario } from '../helpers/address-restore.js';
import { startTestGateway } from '../helpers/gateway.js';

describe('a PGlite folder copied back', () => {
  const folders: string[] = [];
  after(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('hands out no address twice, and a plain restart goes on from the next index', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-restore-'));
    folders.push(folder);
    const dataDir = join(folder, 'pglite');
    const margin = 7;
    let starts = 0;
    await restoreScenario({
      margin,
      start: () => startTestGateway({ config: { dataDir, addresses: { restoreMargin: margin } }, newFolder: starts++ === 0 }),
      backup: () => cp(dataDir, join(folder, 'backup'), { recursive: true }),
      restore: async () => {
        await rm(dataDir, { recursive: true });
        await cp(join(folder, 'backup'), dataDir, { recursive: true });
      },
    });
  });

  it('refuses to start on a marks file it cannot read, saying what to do', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-restore-'));
    folders.push(folder);
    await writeFile(join(folder, 'address-marks.json'), '{not json');
    // The file is read before the database is asked anything.
    const guard = new AddressGuard(undefined as never, new ManualClock(), marksFile({ addresses: { restoreMargin: 100, stateDir: folder } }), 100);
    await assert.rejects(guard.start(), /address marks file .* cannot be read .*: move it away only if this database never handed out an address/);
  });
});
