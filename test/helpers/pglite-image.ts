// A migrated PGlite database as an image, made once for every test process of a run: PGlite's initdb takes about
// 3 s of CPU, loading the image under one, and most test files start a gateway or more.
// Kept in the system's temporary folder under a name that changes with the schema (the migrations as they run,
// the contract's lists written out) and with PGlite's version, so a changed schema never starts from an old image.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, migrationNames, migrationText } from '../../src/sandbox/storage/migrate.js';
import { openPglite } from '../../src/sandbox/storage/pglite.js';

async function imagePath(): Promise<string> {
  const hash = createHash('sha256');
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const packageRoot = entry.slice(0, entry.lastIndexOf('/dist/'));
  hash.update(JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')).version);
  for (const name of await migrationNames()) hash.update(name).update(await migrationText(name));
  return join(tmpdir(), `pay-checkout-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function makeImage(path: string): Promise<Blob> {
  const db = await openPglite();
  try {
    await migrate(db);
    const image = await db.image();
    // Written aside and renamed: a process reading it meanwhile sees the whole image or none.
    const aside = `${path}.${randomBytes(6).toString('hex')}`;
    await writeFile(aside, new Uint8Array(await image.arrayBuffer()));
    await rename(aside, path);
    return image;
  } finally {
    await db.close();
  }
}

let image: Promise<Blob> | undefined;

/** The image of a migrated PGlite database (read from the temporary folder, or made there first). */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= imagePath().then(async (path) => {
    try {
      return new Blob([await readFile(path)]);
    } catch {
      return makeImage(path);
    }
  });
  return image;
}
