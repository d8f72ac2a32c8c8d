// One PGlite folder belongs to one process: PGlite has no lock of its own, and two processes on one folder lose data.
// The lock is the kernel's: flock(2) on a file beside the folder's real path (so `/x/db`, `/x/db/` and a symlink to it
// are one folder), held by a descriptor this process keeps open and released by the kernel when the process ends,
// however it ends. Node has no flock of its own: flock(1) takes it on the descriptor it inherits, which shares the lock
// with this process's, and exits (util-linux and busybox ship it; docs/operations.md says so). The file also holds the
// holder's pid, only to name it in the refusal: the lock never trusts it. A release removes the file, so a taker checks
// that the file it locked is still the one at the path. Where flock(1) is missing (macOS), the
// file created exclusively, holding a live pid, is the lock, as a fallback that cannot tell a reused pid.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { link, mkdir, open, readFile, realpath, stat, unlink, type FileHandle } from 'node:fs/promises';

export class FolderLockedError extends Error {}

/** Takes the lock of `folder`, or throws FolderLockedError naming the process that holds it. Resolves to its release. */
export async function lockFolder(folder: string): Promise<() => Promise<void>> {
  await mkdir(folder, { recursive: true });
  const path = `${await realpath(folder)}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const file = await open(path, 'a+');
    let locked: boolean | undefined;
    try {
      locked = await flock(file);
      if (locked === false) throw lockedError(folder, await holderOf(path));
    } catch (error) {
      await file.close();
      throw error;
    }
    if (locked === undefined) {
      await file.close();
      return pidFileLock(folder, path);
    }
    // A holder's release removes the file before it lets go: a lock taken on a file no longer at `path` is no lock.
    if ((await file.stat()).ino !== (await stat(path).catch(() => undefined))?.ino) {
      await file.close();
      continue;
    }
    await file.truncate(0);
    await file.write(`${process.pid}\n`, 0);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await unlink(path).catch(() => undefined);
      await file.close();
    };
  }
  throw new FolderLockedError(`Could not take the lock ${path}: other processes keep taking and releasing it.`);
}

/** Whether flock(1) took the lock on `file`'s descriptor; undefined when there is no flock(1) to ask. */
async function flock(file: FileHandle): Promise<boolean | undefined> {
  const child = spawn('flock', ['--exclusive', '--nonblock', '3'], { stdio: ['ignore', 'ignore', 'pipe', file.fd] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = once(child, 'close');
  const failed = once(child, 'error').then(([error]) => error as NodeJS.ErrnoException);
  const outcome = await Promise.race([ended.then(([code]) => code as number), failed]);
  if (typeof outcome === 'number') {
    if (outcome === 0) return true;
    if (outcome === 1 && !stderr) return false;
    throw new Error(`flock(1) could not lock ${file.fd}: ${stderr.trim() || `exit ${outcome}`}`);
  }
  if (outcome.code === 'ENOENT') return undefined;
  throw outcome;
}

async function holderOf(path: string): Promise<number | undefined> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  return Number.isInteger(pid) ? pid : undefined;
}

function lockedError(folder: string, holder: number | undefined): FolderLockedError {
  return new FolderLockedError(
    `The PGlite folder ${folder} is in use by ${holder === undefined ? 'another process' : `process ${holder}`}: one folder belongs to one gateway. ` +
      `Stop that process, or give this one its own folder (PGLITE_DIR) or a PostgreSQL server (DATABASE_URL).`,
  );
}

/** The fallback: the lock file made whole (pid written) before it appears under its name, so no one reads it empty. */
async function pidFileLock(folder: string, path: string): Promise<() => Promise<void>> {
  const pidPath = `${path}.${process.pid}`;
  const mine = await open(pidPath, 'w');
  await mine.writeFile(`${process.pid}\n`);
  await mine.close();
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(pidPath, path);
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
      const holder = await holderOf(path);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) throw lockedError(folder, holder);
      // Its process is gone: the lock is stale.
      await unlink(path).catch(() => undefined);
    }
    throw new FolderLockedError(`Could not take the lock ${path}: another process keeps taking it.`);
  } finally {
    await unlink(pidPath).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
