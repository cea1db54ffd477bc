import { Command } from 'commander';
import { defineIcd10Import } from './commands/icd10-command.js';

/** `npm run icd10:import -- FILE [--categories FILE]`: the same import as `clinigate icd10 import`. */
const program = defineIcd10Import(new Command().name('icd10:import'));

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`Import failed: ${err.message}\n`);
  process.exit(1);
});
