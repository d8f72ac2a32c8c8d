// `npm test`: every tier in order, stopping at the first that fails, then how long each took, so that the README's
// tier table can be read against any run (README, "Set up"; CI prints it too).
import { spawnSync } from 'node:child_process';

const TIERS = [
  ['lint', ['run', 'lint']],
  ['types', ['run', 'typecheck']],
  ['build', ['run', 'build']],
  ['node (PGlite, then PostgreSQL)', ['run', 'test:node']],
  ['browsers', ['run', 'test:browser']],
  ['end to end', ['run', 'test:e2e', '--', '--built', '--compiled']],
];

const times = [];
let status = 0;
for (const [name, args] of TIERS) {
  const started = process.hrtime.bigint();
  status = spawnSync('npm', args, { stdio: 'inherit' }).status ?? 1;
  times.push([name, Number(process.hrtime.bigint() - started) / 1e9]);
  if (status !== 0) break;
}
const total = times.reduce((sum, [, s]) => sum + s, 0);
console.log(`\n# npm test, ${status === 0 ? 'passed' : `failed in ${times.at(-1)[0]}`}: ${Math.round(total)} s`);
for (const [name, s] of times) console.log(`#   ${name.padEnd(32)} ${Math.round(s)} s`);
process.exit(status);
