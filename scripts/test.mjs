// `npm test`: every tier, then how long each took, so that the README's tier table can be read against any run
// (README, "Set up"; CI prints it too). Tiers of one stage run side by side, chosen from their measured CPU on two
// cores (README, "Set up"): lint, types and build each take one core for seconds; the node tier keeps about 1.7 of the
// two cores busy and end to end mostly waits on its browser and gateways (about 0.3 of a core), so end to end fills
// what the node tier leaves idle; the browsers, about one core, come last on their own. A stage starts only when the
// one before it passed. The first tier of a stage prints as it runs; the others' output is held and printed whole when
// they end, so that no report interleaves.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const STAGES = [
  [
    ['lint', ['run', 'lint']],
    ['types', ['run', 'typecheck']],
    ['build', ['run', 'build']],
  ],
  [
    ['node (PGlite, then PostgreSQL)', ['run', 'test:node']],
    ['end to end', ['run', 'test:e2e', '--', '--built', '--compiled']],
  ],
  [['browsers', ['run', 'test:browser']]],
];

/** Runs one tier: its status and seconds; `shown` streams its output, otherwise it is printed when it ends. */
function tier([name, args], shown) {
  const started = process.hrtime.bigint();
  const child = spawn('npm', args, { stdio: shown ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const held = [];
  if (!shown) {
    child.stdout.on('data', (chunk) => held.push(chunk));
    child.stderr.on('data', (chunk) => held.push(chunk));
  }
  return new Promise((resolve) => {
    child.once('close', (code) => {
      if (!shown) process.stdout.write(Buffer.concat([Buffer.from(`\n# ${name}, run beside the tier above:\n`), ...held]));
      resolve({ name, status: code ?? 1, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

const times = [];
let failed;
const started = process.hrtime.bigint();
for (const stage of STAGES) {
  const results = await Promise.all(stage.map((t, i) => tier(t, i === 0)));
  times.push(...results);
  failed = results.find((r) => r.status !== 0);
  if (failed) break;
}
const total = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`\n# npm test, ${failed ? `failed in ${failed.name}` : 'passed'}: ${Math.round(total)} s`);
for (const { name, seconds } of times) console.log(`#   ${name.padEnd(32)} ${Math.round(seconds)} s`);
process.exit(failed ? failed.status : 0);
