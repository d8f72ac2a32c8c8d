// The groups of statuses are the contract's (src/contract/rules.ts): the database's constraints and indexes say exactly
// what the contract says. Migrations are frozen text (storage/migrate.ts), so a list that changes in the contract
// fails here until a new migration changes the database's list too. Statements take their lists from the contract.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { WEBHOOK_ATTEMPT_ERRORS, WEBHOOK_DELIVERY_STATUSES } from '../../src/contract/merchant-read.js';
import { REFUND_STATUSES, REFUND_TYPES } from '../../src/contract/refund.js';
import { LINK_STATUSES, LIVE_LINK_STATUSES, OPEN_PAYMENT_STATUSES, PAYMENT_STATUSES, QUOTE_OPEN_STATUSES } from '../../src/contract/rules.js';
import type { Database } from '../../src/sandbox/storage/database.js';
import { migrate } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';

/** The words of a definition's status list (PostgreSQL writes `IN (…)` back as `= ANY (ARRAY['a'::text, …])`), sorted. */
const listIn = (definition: string) => [...(/ARRAY\[([^\]]*)\]/.exec(definition)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!).sort();
const sorted = (list: readonly string[]) => [...list].sort();

describe('status groups', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await migrate(db);
  });
  after(() => db.close());

  const constraint = async (name: string) =>
    (await db.query<{ definition: string }>('SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = $1', [name]))[0]!.definition;
  const index = async (name: string) => (await db.query<{ definition: string }>('SELECT indexdef AS definition FROM pg_indexes WHERE indexname = $1', [name]))[0]!.definition;

  it('are the contract’s in the database the migrations make (a list that changed needs a migration)', async () => {
    assert.deepEqual(listIn(await constraint('payment_links_status_check')), sorted(LINK_STATUSES), 'every link status');
    assert.deepEqual(listIn(await constraint('refunds_refund_status_check')), sorted(REFUND_STATUSES), 'every refund status');
    assert.deepEqual(listIn(await constraint('refunds_refund_type_check')), sorted(REFUND_TYPES), 'every refund type');
    assert.deepEqual(listIn(await constraint('webhook_deliveries_status_check')), sorted(WEBHOOK_DELIVERY_STATUSES), 'every delivery status');
    assert.deepEqual(listIn(await constraint('webhook_attempts_error_check')), sorted(WEBHOOK_ATTEMPT_ERRORS), 'every reason nothing answered');
    assert.deepEqual(listIn(await constraint('payments_one_open_per_link')), sorted(QUOTE_OPEN_STATUSES), 'one open quote per link');
    assert.deepEqual(listIn(await index('payments_open_by_quote_expiry')), sorted(QUOTE_OPEN_STATUSES), 'quotes that can run out');
    assert.deepEqual(listIn(await index('payment_links_one_live_per_order')), sorted(LIVE_LINK_STATUSES), 'one live link per order');
    assert.deepEqual(listIn(await constraint('payments_status_check')), sorted(PAYMENT_STATUSES), 'every payment status');
    assert.ok(OPEN_PAYMENT_STATUSES.every((s) => PAYMENT_STATUSES.includes(s)));
  });

  it('are never spelled out by hand in a statement', () => {
    const statusList = /IN\s*\(\s*'(awaiting_payment|underpaid|confirming|paid|expired|paid_late|active|PENDING|SUCCESS|FAILED|pending|delivered|failed|partial|full)'/;
    // Every source file, so a new one is never missed: statements live in storage/, and a few beside it (the simulated
    // chain's, the address guard's). The migrations are .sql, frozen text that keeps the lists of its day.
    const src = new URL('../../src/', import.meta.url);
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    assert.ok(files.includes('sandbox/storage/payments.ts'), 'the scan reaches the storage files');
    for (const file of files) assert.doesNotMatch(readFileSync(new URL(file, src), 'utf8'), statusList, `src/${file} writes a status list`);
  });
});
