import type { PgBoss } from 'pg-boss';
import type { JobTimer } from './metrics.js';

/**
 * The same pg-boss instance, but every handler registered through `work` is timed and counted
 * by queue and outcome. Job handlers stay unaware of metrics.
 */
export function instrumentBoss(boss: PgBoss, metrics: JobTimer): PgBoss {
  const work = (name: string, ...rest: unknown[]) => {
    const handler = rest.pop() as (jobs: unknown) => Promise<unknown>;
    const timed = (jobs: unknown) => metrics.timeJob(name, () => handler(jobs));
    return (boss.work as (...args: unknown[]) => Promise<string>)(name, ...rest, timed);
  };
  return new Proxy(boss, {
    get(target, prop) {
      if (prop === 'work') return work;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
