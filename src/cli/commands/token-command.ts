import type { Command } from 'commander';
import { mintDevToken } from '../../dev-banner.js';
import { fillDevSecrets } from '../../dev-secrets.js';
import { CliError, cliConfig } from '../cli-errors.js';

interface TokenOptions {
  user: string;
  group: string;
  ttl: string;
}

/** The JWT secret the service verifies with: JWT_SECRET, else the development one in DATA_DIR/secrets.json. */
function developmentSecret(): { secret: string; issuer?: string; audience?: string } {
  // Checked before the config: production tokens come from the identity provider, never from here.
  if (process.env.NODE_ENV === 'production') {
    throw new CliError('refusing to mint a token in production: tokens must come from your identity provider');
  }
  const config = cliConfig();
  if (config.jwtMode !== 'hs256') {
    const by = config.jwtMode === 'jwks' ? `a JWKS (JWT_JWKS_URL)` : 'a public key (JWT_PUBLIC_KEY)';
    throw new CliError(
      `refusing to mint a token: JWT verification uses ${by}; tokens must come from the identity provider that holds the private key`,
    );
  }
  const secret = config.JWT_SECRET ?? fillDevSecrets(config).config.JWT_SECRET!;
  return { secret, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE };
}

/** `clinigate token --user U --group G [--ttl 12h]`: a development bearer token, printed alone on stdout. */
export function registerToken(program: Command): void {
  program
    .command('token')
    .description('mint a development bearer token (HS256 with JWT_SECRET, else DATA_DIR/secrets.json); refused in production')
    .requiredOption('--user <id>', 'the user id (sub claim)')
    .requiredOption('--group <id>', 'the group id (group_id claim): the tenant that owns what the token creates')
    .option('--ttl <duration>', 'lifetime: 30m, 12h, 7d, ...', '12h')
    .addHelpText('after', '\nExample:\n  curl -H "Authorization: Bearer $(clinigate token --user u1 --group g1)" -H "x-doctor: dr-1" ...')
    .action(async (opts: TokenOptions) => {
      if (!opts.user.trim() || !opts.group.trim()) throw new CliError('--user and --group must not be empty', 2);
      const { secret, issuer, audience } = developmentSecret();
      let token: string;
      try {
        token = await mintDevToken(secret, opts.user, opts.group, opts.ttl, { issuer, audience });
      } catch (err) {
        if (err instanceof TypeError) throw new CliError(`--ttl "${opts.ttl}" is not a duration (e.g. 30m, 12h, 7d)`, 2);
        throw err;
      }
      process.stdout.write(`${token}\n`);
    });
}
