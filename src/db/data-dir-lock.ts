import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StartupError } from '../lib/startup-error.js';

export interface DataDirLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // After a reboot the pid may belong to something else: only a node process counts (Linux).
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

/**
 * Two processes must never run one embedded cluster: the first to start holds DATA_DIR/clinigate.pid
 * (created exclusively); a second one is refused naming the holder. A lock left by a process that
 * died (SIGKILL, power loss) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, 'clinigate.pid');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          try {
            if (Number(readFileSync(file, 'utf8')) === process.pid) unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (holder > 0 && alive(holder)) {
      throw new StartupError(
        `data folder ${resolve(dataDir)} is in use by pid ${holder} (another Clinigate): stop it, or give this one its own DATA_DIR`,
      );
    }
    try {
      unlinkSync(file);
    } catch {
      /* another starter took it over first */
    }
  }
  throw new StartupError(`data folder ${resolve(dataDir)} is locked (${file}) and the lock could not be taken over`);
}

/** The pid of the live process holding DATA_DIR (a running service), if any. */
export function lockHolder(dataDir: string): number | undefined {
  try {
    const holder = Number(readFileSync(join(dataDir, 'clinigate.pid'), 'utf8').trim());
    return holder > 0 && alive(holder) ? holder : undefined;
  } catch {
    return undefined;
  }
}
