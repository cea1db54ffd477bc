// Root postinstall: installs the lint tools' own tree (see package.json here for why it is apart).
// A production install (--omit=dev) has no use for them and skips it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const omitted = `${process.env.npm_config_omit ?? ''}`.split(/[\s,]+/);
if (omitted.includes('dev') || process.env.NODE_ENV === 'production') process.exit(0);

// Already installed as locked (npm's own record of node_modules matches the lock): nothing to do.
// `npx clinigate` runs this package's postinstall again when it links the checkout; without this
// it would reinstall the lint tools (~20 s, network) on a newcomer's first CLI command.
function installedAsLocked() {
  try {
    const read = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')).packages;
    const [want, have] = [read('package-lock.json'), read('node_modules/.package-lock.json')];
    return Object.entries(want).every(([path, entry]) => path === '' || have[path]?.version === entry.version);
  } catch {
    return false;
  }
}
if (installedAsLocked()) process.exit(0);

const npm = process.env.npm_execpath;
const args = ['ci', '--no-audit', '--no-fund', '--loglevel=error'];
const cwd = fileURLToPath(new URL('.', import.meta.url));
if (npm) execFileSync(process.execPath, [npm, ...args], { cwd, stdio: 'inherit' });
else execFileSync('npm', args, { cwd, stdio: 'inherit' });
