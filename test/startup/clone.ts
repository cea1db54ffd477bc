import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/process.js';

/** What a fresh clone holds that the service, its CLI and the README's scripts need (no dist, no .data). */
const CLONED = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'src',
  'config',
  'console',
  'migrations',
  'scripts',
  'bin',
];

/**
 * A fresh copy of the project in `parent/name`, as `git clone` + `npm install` leave it: the
 * working files (uncommitted edits included), node_modules and the lint tools' tree hard-linked
 * (same files, no download).
 */
export function cloneProject(parent: string, name = 'clinigate'): string {
  const clone = join(parent, name);
  mkdirSync(clone, { recursive: true });
  for (const entry of CLONED) cpSync(join(REPO_ROOT, entry), join(clone, entry), { recursive: true });
  execFileSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules')]);
  mkdirSync(join(clone, 'tools'));
  execFileSync('cp', ['-al', join(REPO_ROOT, 'tools', 'lint'), join(clone, 'tools', 'lint')]);
  return clone;
}
