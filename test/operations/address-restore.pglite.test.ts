// A PGlite folder copied back (docs/operations.md, "Back up and restore"): the gateway stopped, its folder copied, more
// addresses handed out (one paid), the old folder copied back in place, a start: the marks file beside the folder
// (written before each block of indexes is handed out) moves every index past them, and no address comes twice; plain
// restarts go on from the next index. Also: an unreadable marks file stops the start, saying what to do.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../src/sandbox/clock.js';
import { loadConfig } from '../../src/sandbox/config.js';
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

  it("moves a merchant account's index too, and tells a clean stop and a crash from a restore", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-restore-'));
    folders.push(folder);
    const gateway = await startTestGateway();
    try {
      const { db } = gateway.gateway;
      const clock = new ManualClock();
      const file = join(folder, 'address-marks.json');
      const guard = () => new AddressGuard(db, clock, file, 10);
      const account = async (next?: number) => {
        if (next !== undefined) await db.query("UPDATE merchant_account_keys SET next_index = $1 WHERE account_key = 'k1'", [next]);
        return Number((await db.query<{ next_index: string }>("SELECT next_index::text FROM merchant_account_keys WHERE account_key = 'k1'"))[0]!.next_index);
      };
      await db.query(
        `INSERT INTO merchant_account_keys (merchant_id, family, account_key, account_xpub, next_index, in_use, created_at) VALUES ($1, 'evm', 'k1', 'xpub', 5, true, now())`,
        [gateway.gateway.sandboxMerchant!.merchant_id],
      );
      const first = guard();
      assert.equal(await first.start(), undefined, 'a first start finds nothing');
      await first.taking('evm:k1', 5);
      await account(6);
      await first.stop();
      assert.equal(await guard().start(), undefined, 'a clean restart finds nothing');
      assert.equal(await account(), 6, 'and moves nothing');

      await account(3); // the database restored from before index 5 was handed out
      const found = await guard().start();
      assert.match(found!.reason, /below those already handed out \(global, evm\)|below those already handed out \(evm\)/);
      // Past the exact index the clean stop wrote (6), by the margin.
      assert.deepEqual(found!.moved.find((m) => m.counter === 'evm:k1'), { counter: 'evm:k1', from: 3, to: 16 });
      assert.equal(await account(), 16);

      const crashed = guard();
      assert.equal(await crashed.start(), undefined);
      await crashed.taking('evm:k1', 16);
      await account(17); // and no clean stop
      assert.equal(await guard().start(), undefined, 'a restart after a crash finds nothing');
      assert.equal(await account(), 17);
      await account(15); // restored from before the last index handed out
      assert.ok(await guard().start(), 'a restore after a crash is found');
      assert.equal(await account(), 27);
    } finally {
      await gateway.close();
    }
  });

  it('hands out no index before the block it falls in is on disk, however many are taken at once', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-restore-'));
    folders.push(folder);
    const file = join(folder, 'address-marks.json');
    const guard = new AddressGuard(undefined as never, new ManualClock(), file, 10);
    const onDisk = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { counters: Record<string, { to: number }> }).counters.global?.to ?? 0 : 0);
    const early: number[] = [];
    await Promise.all(Array.from({ length: 45 }, (_, index) => guard.taking('global', index).then(() => (onDisk() > index ? undefined : early.push(index)))));
    assert.deepEqual(early, [], 'indexes free to hand out before their block was written');
    assert.equal(onDisk(), 60);
  });

  it('reads ADDRESS_RESTORE_MARGIN and ADDRESS_STATE_DIR, and refuses a margin that is no whole number, naming it', () => {
    assert.deepEqual(loadConfig({}).addresses, { restoreMargin: 100, stateDir: undefined });
    assert.deepEqual(loadConfig({ ADDRESS_RESTORE_MARGIN: '25', ADDRESS_STATE_DIR: '/var/lib/pay' }).addresses, { restoreMargin: 25, stateDir: '/var/lib/pay' });
    assert.equal(marksFile({ addresses: { restoreMargin: 1 }, dataDir: '/data/pglite/' }), '/data/pglite.address-marks.json');
    // The image sets PGLITE_DIR for its volume; with DATABASE_URL that folder is no store, and no marks file goes beside it.
    const image = loadConfig({ PGLITE_DIR: '/data/pglite', DATABASE_URL: 'postgres://pay@db.internal/pay' });
    assert.equal(marksFile(image), undefined);
    for (const wrong of ['-1', '1.5', 'many', '1000001']) {
      assert.throws(() => loadConfig({ ADDRESS_RESTORE_MARGIN: wrong }), new RegExp(`ADDRESS_RESTORE_MARGIN must be a whole number from 0 to 1000000, got ${wrong}`));
    }
  });
});
