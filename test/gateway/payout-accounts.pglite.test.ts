// Migration 022 numbers each merchant's payout account (docs/operations.md, "Payout wallets"): the merchants of a
// database made before it oldest first from 0 (the oldest keeps the one hot wallet's account), each merchant made after
// the next number, and a number never given twice, even once its merchant is gone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate, migrationNames } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';

const merchant = (id: string, createdAt = 'now()') =>
  `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash, created_at)
   VALUES ('${id}', '${id}', 'client_${id}', 'hash', 'sealed', 'key_${id}', ${createdAt})`;

describe('payout accounts (PGlite)', () => {
  it('numbers the merchants there are oldest first from 0, then each new one next, never reusing a number', async () => {
    const names = await migrationNames();
    const db = await openPglite();
    try {
      await migrate(db, names.filter((name) => name < '022'));
      await db.query(merchant('second'));
      await db.query(merchant('first', "now() - interval '1 day'"));
      await migrate(db);
      await db.query(merchant('third'));
      await db.query("DELETE FROM merchants WHERE merchant_id = 'third'");
      await db.query(merchant('fourth'));
      const rows = await db.query<{ merchant_id: string; payout_account: number }>('SELECT merchant_id, payout_account FROM merchants ORDER BY payout_account');
      assert.deepEqual(
        rows.map((r) => [r.merchant_id, r.payout_account]),
        [['first', 0], ['second', 1], ['fourth', 3]],
      );
      await assert.rejects(db.query("UPDATE merchants SET payout_account = 0 WHERE merchant_id = 'fourth'"), /unique/i, 'one account, one merchant');
    } finally {
      await db.close();
    }
  });
});
