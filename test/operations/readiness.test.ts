// Readiness answers within a second whatever the database does: a check that has not answered by then has failed
// (services/operations/readiness.ts). A load balancer's probe never waits on a database that went silent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../src/sandbox/clock.js';
import type { Sealer } from '../../src/sandbox/secrets.js';
import { Health } from '../../src/sandbox/services/operations/readiness.js';
import type { SandboxControls } from '../../src/sandbox/services/sandbox/sandbox-controls.js';
import type { Database } from '../../src/sandbox/storage/database.js';

describe('readiness', () => {
  it('fails the checks of a database that never answers, by its own deadline', { timeout: 10_000 }, async () => {
    const silent = new Promise<never>(() => undefined);
    const db = { query: () => silent } as unknown as Database;
    const controls = { chainState: () => silent } as unknown as SandboxControls;
    const health = new Health(db, systemClock, {} as Sealer, controls, ['001_merchant_api.sql']);
    const answer = await health.readiness();
    assert.equal(answer.ready, false);
    assert.deepEqual(answer.checks.database, { ok: false, detail: 'no answer within 900 ms' });
    assert.equal(answer.checks.data_key.ok, false);
    assert.deepEqual(answer.networks, []);
  });
});
