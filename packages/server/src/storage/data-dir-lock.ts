import { appendFileSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlive } from '../process-alive.js';

/** Directories this process holds: a lock file naming our pid but absent here is from an earlier life (a container restarted as pid 1). */
const heldHere = new Set<string>();

/** The pids the lock file names, one a line: the owner first, then processes working for it. */
function holders(path: string): number[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => Number.parseInt(line, 10))
      .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
  } catch {
    return [];
  }
}

/**
 * PGlite is one process's database: a second process opening the same directory (say
 * `scrub-server credits grant` beside a running server) would silently lose writes. A lock file
 * beside the directory, naming the owner's pid, makes the second one stop with a clear message.
 * A lock left by a process that died is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const path = `${resolve(dir)}.lock`;
  const mine = String(process.pid);
  if (heldHere.has(path)) {
    throw new Error(`The embedded database in ${dir} is already open in this process (${mine}).`);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      heldHere.add(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      // The owner, or a process that worked for it (its database process) and may still write.
      const pid = holders(path).find((each) => each !== process.pid && isAlive(each));
      if (pid !== undefined) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${pid} (a running scrub-server?). Stop it first: only one process at a time can open the embedded database. If no such process uses it, delete ${path}.`,
        );
      }
      unlinkSync(path);
    }
  }
  return () => {
    if (!heldHere.delete(path)) return;
    if (holders(path)[0] === process.pid) unlinkSync(path);
  };
}

/**
 * Names `pid`, a process working on the data directory for this one (the embedded database's own
 * process), in its lock: should this process die first, the directory stays locked until that one
 * has ended too.
 */
export function alsoLockedBy(dir: string, pid: number): void {
  const path = `${resolve(dir)}.lock`;
  if (heldHere.has(path)) appendFileSync(path, `\n${pid}`);
}
