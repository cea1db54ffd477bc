import type { Command } from 'commander';
import { decodeKey, encryptionKeys } from '../../config.js';
import { withDatabase } from '../database.js';
import { CliError, cliConfig } from '../cli-errors.js';

interface RotateOptions {
  oldKey?: string[];
}

/**
 * Re-seals every stored secret under SECRETS_ENCRYPTION_KEY (the new key). The old key(s) open
 * what was sealed before: SECRETS_ENCRYPTION_PREVIOUS_KEYS, or --old-key (which shows in the
 * process list: prefer the variable on a shared machine).
 */
async function rotateKey(opts: RotateOptions): Promise<void> {
  const config = cliConfig();
  if (!config.SECRETS_ENCRYPTION_KEY)
    throw new CliError('set SECRETS_ENCRYPTION_KEY to the new key (32 bytes, 64 hex digits or base64)', 2);
  const old = (opts.oldKey ?? []).map((k) => {
    const key = decodeKey(k.trim());
    if (!key) throw new CliError('--old-key must be a 32-byte key, as 64 hex digits or base64', 2);
    return key;
  });
  const [{ SecretBox }, { resealStoredSecrets }] = await Promise.all([
    import('../../lib/secret-box.js'),
    import('../../modules/secrets/seal-stored-secrets.js'),
  ]);
  const keys = encryptionKeys(config);
  const box = new SecretBox({ current: keys.current, previous: [...keys.previous, ...old] });
  await withDatabase(config, async ({ pool }) => {
    const { resealed, unreadable } = await resealStoredSecrets(pool, box);
    process.stdout.write(`Re-sealed ${resealed} stored secret${resealed === 1 ? '' : 's'} under key ${box.currentKeyId}.\n`);
    if (unreadable.length) {
      const where = unreadable.map((p) => `${p.table}.${p.column} ${p.id}`).join(', ');
      throw new CliError(`${unreadable.length} stored secret(s) open under none of the given keys (left as they are): ${where}`);
    }
  });
}

export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('stored secrets: secrets rotate-key [--old-key <key>]');
  secrets
    .command('rotate-key')
    .description('re-seal every stored secret under SECRETS_ENCRYPTION_KEY; the old key from SECRETS_ENCRYPTION_PREVIOUS_KEYS or --old-key')
    .option('--old-key <key>', 'a key the stored secrets were sealed under (repeatable)', (v: string, acc: string[] = []) => [...acc, v])
    .addHelpText('after', '\nThen run the service with the new SECRETS_ENCRYPTION_KEY (and drop the old key once every process has it).')
    .action(rotateKey);
}
