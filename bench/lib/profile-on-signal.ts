/**
 * Preloaded into a benchmarked server (`node --import ./bench/lib/profile-on-signal.ts`): the
 * first SIGUSR2 starts the V8 CPU profiler, the second stops it and writes a .cpuprofile to
 * CPU_PROFILE_DIR. Start-up (module loading, compilation) stays out of the profile.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROFILE_DIR ?? '.';
const session = new Session();
session.connect();
let running = false;

const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));

process.on('SIGUSR2', () => {
  void (async () => {
    if (!running) {
      running = true;
      await post('Profiler.enable');
      await post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(profile));
  })();
});
