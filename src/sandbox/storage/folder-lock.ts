// One PGlite folder belongs to one process: PGlite has no lock of its own, and two processes on one folder lose data.
// The lock is a file beside the folder holding the owner's pid, created exclusively; a lock whose process is gone
// (killed, crashed) is taken over.
import { open, readFile, unlink } from 'node:fs/promises';

export class FolderLockedError extends Error {}

/** Takes the lock of `folder`, or throws FolderLockedError naming the process that holds it. Resolves to its release. */
export async function lockFolder(folder: string): Promise<() => Promise<void>> {
  const path = `${folder}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx');
      await file.writeFile(`${process.pid}\n`);
      await file.close();
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        await unlink(path).catch(() => undefined);
      };
      // A process that exits without closing (an uncaught error, process.exit) still frees the folder.
      process.once('exit', () => void release());
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
      throw new FolderLockedError(
        `The PGlite folder ${folder} is in use by process ${holder}: one folder belongs to one gateway. ` +
          `Stop that process, or give this one its own folder (PGLITE_DIR) or a PostgreSQL server (DATABASE_URL).`,
      );
    }
    // Its process is gone: the lock is stale.
    await unlink(path).catch(() => undefined);
  }
  throw new FolderLockedError(`Could not take the lock ${path}: another process keeps taking it.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
