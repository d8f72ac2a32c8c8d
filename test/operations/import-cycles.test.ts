// No import circles among the sources (scripts/import-cycles.ts reads them): a name two modules both need lives in a
// third, where it belongs (a port beside its users, a lock in storage/locks.ts, a URL on the read side).
// Store: none (it reads the sources).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { importCycles } from '../../scripts/import-cycles.js';

describe('imports', () => {
  it('form no circle in src/', () => {
    assert.deepEqual(importCycles(fileURLToPath(new URL('../../src/', import.meta.url))), []);
  });
});
