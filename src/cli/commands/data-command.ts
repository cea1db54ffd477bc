import type { Command } from 'commander';
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { CLUSTERS_BASE, describeDataHome, purge, purgeTargets, type DataHome } from '../../db/data-home.js';
import { CliError, cliConfig } from '../cli-errors.js';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

function listing(home: DataHome): string {
  const lines: string[] = [];
  if (!home.exists) lines.push(`${home.dataDir}: nothing (no data yet)`);
  else {
    const state = home.runningPid ? `in use by pid ${home.runningPid}` : 'not running';
    lines.push(`${home.dataDir}  (${state}${home.port ? `, embedded PostgreSQL port ${home.port}` : ''})`);
    for (const e of home.entries) lines.push(`  ${e.path}  ${size(e.bytes)}  ${e.what}`);
  }
  if (home.earlier.length) {
    lines.push(`Left outside any project folder by versions before 2026-11-26 (patient data), in ${CLUSTERS_BASE}:`);
    for (const c of home.earlier)
      lines.push(`  ${c.path}  ${size(c.bytes)}  ${c.ours ? "this DATA_DIR's" : 'another DATA_DIR’s, or one deleted'}`);
  }
  return `${lines.join('\n')}\n`;
}

async function confirmed(targets: string[]): Promise<boolean> {
  if (!stdin.isTTY) throw new CliError('refusing to delete patient data without a confirmation: run it in a terminal, or pass --yes', 2);
  const rl = createInterface({ input: stdin, output: stdout });
  try {
    const answer = await rl.question(`Delete these for good?\n${targets.map((t) => `  ${t}`).join('\n')}\n[y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * `clinigate data list|purge`: where the service keeps its data (DATA_DIR: the embedded cluster,
 * the development secrets), and its removal, asked first. The cluster of a running service is not
 * removed under it.
 */
export function registerData(program: Command): void {
  const data = program.command('data').description('patient data kept in DATA_DIR: data list | data purge [--yes]');
  data
    .command('list')
    .description('where the data is, its size, and whether a service is using it')
    .action(() => {
      stdout.write(listing(describeDataHome(cliConfig().DATA_DIR)));
    });
  data
    .command('purge')
    .description('delete the embedded database and the development secrets of DATA_DIR, after asking')
    .option('--yes', 'do not ask (for scripts)')
    .option('--all-earlier', `also every cluster earlier versions left in ${CLUSTERS_BASE}, whichever DATA_DIR it was for`)
    .action(async (opts: { yes?: boolean; allEarlier?: boolean }) => {
      const home = describeDataHome(cliConfig().DATA_DIR);
      if (home.runningPid) throw new CliError(`the service (pid ${home.runningPid}) is using ${home.dataDir}: stop it first`);
      const targets = purgeTargets(home, Boolean(opts.allEarlier));
      if (targets.length === 0) {
        stdout.write(`Nothing to delete in ${home.dataDir}.\n`);
        return;
      }
      if (!opts.yes && !(await confirmed(targets))) {
        stdout.write('Nothing deleted.\n');
        return;
      }
      purge(home, targets);
      stdout.write(`Deleted:\n${targets.map((t) => `  ${t}`).join('\n')}\n`);
    });
}
