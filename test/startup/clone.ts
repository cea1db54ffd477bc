import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../helpers/process.js';

/** The repository's files as a clone gets them: tracked ones and new ones not ignored (no dist, no .data). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return listed.split('\0').filter((file) => file && existsSync(join(REPO_ROOT, file)));
}

/**
 * A fresh copy of the project in `parent/name`, as `git clone` + `npm install` leave it: the
 * repository's files (uncommitted edits included), node_modules and the lint tools' tree
 * hard-linked (same files, no download).
 */
export function cloneProject(parent: string, name = 'clinigate'): string {
  const clone = join(parent, name);
  for (const file of repositoryFiles()) {
    if (file.startsWith('test/') || file.startsWith('bench/')) continue; // not needed to run it
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(clone, file));
  }
  execFileSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules')]);
  execFileSync('cp', ['-al', join(REPO_ROOT, 'tools', 'lint', 'node_modules'), join(clone, 'tools', 'lint', 'node_modules')]);
  return clone;
}
