import { Option, type Command } from 'commander';
import { boundYoungGeneration } from '../../lib/young-generation.js';

/** `clinigate serve [--role api|worker|all]`: the service, exactly as `npm start` runs it. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the service (HTTP API and/or queue workers), as npm start does; runs until SIGTERM/SIGINT')
    .addOption(new Option('--role <role>', 'what this process runs; overrides ROLE').choices(['api', 'worker', 'all']))
    .addHelpText('after', '\nConfiguration comes from the environment (PORT, DATABASE_URL, DATA_DIR, ...); see DESIGN.md.')
    .action(async (opts: { role?: 'api' | 'worker' | 'all' }) => {
      try {
        // As main.ts: before the service's modules load (young-generation.ts).
        boundYoungGeneration(8);
        // Loaded here: the whole service graph is not needed for --help or the other commands.
        const { startServer } = await import('../../server.js');
        await startServer({ role: opts.role });
      } catch (err) {
        // The same line and exit code as `npm start`.
        const reason = err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
        process.stderr.write(`Start-up failed: ${reason}\n`);
        process.exit(1);
      }
    });
}
