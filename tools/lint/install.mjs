// Root postinstall: installs the lint tools' own tree (see package.json here for why it is apart).
// A production install (--omit=dev) has no use for them and skips it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const omitted = `${process.env.npm_config_omit ?? ''}`.split(/[\s,]+/);
if (omitted.includes('dev') || process.env.NODE_ENV === 'production') process.exit(0);

const npm = process.env.npm_execpath;
const args = ['ci', '--no-audit', '--no-fund', '--loglevel=error'];
const cwd = fileURLToPath(new URL('.', import.meta.url));
if (npm) execFileSync(process.execPath, [npm, ...args], { cwd, stdio: 'inherit' });
else execFileSync('npm', args, { cwd, stdio: 'inherit' });
