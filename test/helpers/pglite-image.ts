// A migrated PGlite database as an image, made once for every test process of a run: PGlite's initdb takes about
// 3 s of CPU, loading the image under one, and most test files start a gateway or more. Gateway processes get a copy
// of a folder made from it (seedPgliteFolder): they open a folder given to them, and one that exists is not made anew.
// Kept in the system's temporary folder under a name that changes with the schema (the migrations' names and text)
// and with PGlite's version, so a changed schema never starts from an old image.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

let folder: Promise<string> | undefined;

/** A migrated PGlite folder beside the image, made from it once (aside and renamed, as the image is). */
function migratedPgliteFolder(): Promise<string> {
  folder ??= imagePath().then(async (path) => {
    const made = path.replace(/\.tar$/, '');
    if (existsSync(made)) return made;
    const aside = `${made}.${randomBytes(6).toString('hex')}`;
    const db = await openPglite(aside, { image: await migratedPgliteImage() });
    await db.close();
    // Another test process may have made it meanwhile: either folder serves.
    await rename(aside, made).catch(() => rm(aside, { recursive: true, force: true }));
    return made;
  });
  return folder;
}

/**
 * Makes `dir` a migrated PGlite folder, unless it exists: a gateway process started on it skips initdb and the
 * migrations, about 4.5 s of CPU, and starts as on a folder it made itself.
 */
export async function seedPgliteFolder(dir: string): Promise<void> {
  if (existsSync(dir)) return;
  await mkdir(dirname(dir), { recursive: true });
  await cp(await migratedPgliteFolder(), dir, { recursive: true });
}
