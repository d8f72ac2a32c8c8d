// The advisory locks have one registry (src/sandbox/storage/locks.ts): no two names share a key, and no other source
// file takes an advisory lock itself, so a number cannot be given a second meaning unseen.
// Store: none (it reads the sources).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { LOCK_KEYS, LOCK_SPACES } from '../../src/sandbox/storage/locks.js';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const registry = 'sandbox/storage/locks.ts';

describe('advisory locks', () => {
  for (const [kind, names] of Object.entries({ LOCK_KEYS, LOCK_SPACES })) {
    it(`no two names of ${kind} share a key`, () => {
      const byKey = new Map<number, string[]>();
      for (const [name, key] of Object.entries(names)) byKey.set(key, [...(byKey.get(key) ?? []), name]);
      assert.deepEqual(
        [...byKey].filter(([, shared]) => shared.length > 1),
        [],
      );
    });
  }

  it('are taken only through the registry, by name', () => {
    // An advisory lock function in SQL, one of the registry's given a number rather than a name, or a number of the
    // registry's range named elsewhere.
    const own = /pg_(try_)?advisory|lock(Exclusive|Shared|Each)\([^,()]+,\s*\d|\b7310\d{3}\b/;
    const takers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && path !== registry)
      .filter((path) => own.test(readFileSync(join(src, path), 'utf8')));
    assert.deepEqual(takers, []);
  });
});
