// The portal's line about the gateway's health, from what GET /readyz answers (demo/scripts/portal/gateway-health.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthLine } from '../../demo/scripts/portal/gateway-health.js';
import type { Readiness } from '../../src/sandbox/services/operations/readiness.js';

const ready: Readiness = {
  ready: true,
  stopping: false,
  checks: { database: { ok: true }, migrations: { ok: true }, data_key: { ok: true } },
  networks: [
    { network: 'TRON', available: true, height: 1204, synced_at: '2026-11-26T12:00:00.000Z', lag_seconds: 1.4 },
    { network: 'ETHEREUM', available: false, height: 88, synced_at: null, lag_seconds: null },
  ],
};

describe("the portal's gateway health", () => {
  it('says the gateway is ready, then each network: its block and lag, or that it cannot be seen', () => {
    assert.equal(healthLine(ready), 'Gateway ready · TRON at block 1204, 1 s behind · ETHEREUM cannot be seen');
  });

  it('names the checks that fail, and a stop under way', () => {
    const down = { ...ready, ready: false, checks: { ...ready.checks, database: { ok: false, detail: 'no answer within 900 ms' } }, networks: [] };
    assert.equal(healthLine(down), 'Gateway not ready (database: no answer within 900 ms)');
    assert.equal(healthLine({ ...ready, ready: false, stopping: true, networks: [] }), 'Gateway stopping');
  });
});
