// The committed artifacts are what the sources compile to: a source changed without running `node scripts/contracts.mjs`,
// or a hand edit of artifacts.ts, fails here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

it('src/sandbox/chains/evm/contracts/artifacts.ts is what its Solidity sources compile to', () => {
  const script = fileURLToPath(new URL('../../scripts/contracts.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
});
