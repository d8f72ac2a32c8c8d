// dist/pay-checkout.js as the browser suites need it: built by `vite build` (vite.config.ts) when it is missing or
// older than a source it bundles (src/checkout/ and src/contract/), so a measurement never runs an old element.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ELEMENT_BUNDLE = join(ROOT, 'dist', 'pay-checkout.js');
const SOURCES = [join(ROOT, 'src', 'checkout'), join(ROOT, 'src', 'contract')];

function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/** Builds the script-tag file when needed; says what it did, for the suite's notes. */
export function ensureElementBuilt(): string {
  const why = !existsSync(ELEMENT_BUNDLE)
    ? 'was missing'
    : statSync(ELEMENT_BUNDLE).mtimeMs < Math.max(...SOURCES.map(newestMtime))
      ? 'was older than src/checkout or src/contract'
      : undefined;
  if (!why) return 'dist/pay-checkout.js was up to date with src/checkout and src/contract: measured as built.';
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  return `dist/pay-checkout.js ${why}: rebuilt with \`vite build\` before measuring.`;
}
