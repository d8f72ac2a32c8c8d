// The package's README is docs/npm-readme.md (what an adopter reads on the registry, links absolute), the
// repository's is README.md. npm always packs the root README.md, so `npm pack` and `npm publish` swap them:
// `use` before packing (prepack), `restore` after (postpack). A README.md left swapped by a pack that failed
// half-way is put back by `restore`.
import { copyFileSync, existsSync, renameSync } from 'node:fs';

const BACKUP = '.README.repository.md';
const command = process.argv[2];

if (command === 'use') {
  if (existsSync(BACKUP)) throw new Error(`${BACKUP} exists: a pack did not finish; run node scripts/package-readme.mjs restore first`);
  renameSync('README.md', BACKUP);
  copyFileSync('docs/npm-readme.md', 'README.md');
} else if (command === 'restore') {
  if (existsSync(BACKUP)) renameSync(BACKUP, 'README.md');
} else {
  throw new Error('usage: node scripts/package-readme.mjs use|restore');
}
