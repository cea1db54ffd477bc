import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm run lint:deps`'s own rule (tools/lint/dependency-rules.mjs), run on small source trees. */
const RULES = fileURLToPath(new URL('../../tools/lint/dependency-rules.mjs', import.meta.url));

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A tree of plain modules: path -> the files it imports (relative to the tree). */
function tree(files: Record<string, string[]>): string {
  root = mkdtempSync(join(tmpdir(), 'module-cycles-'));
  writeFileSync(join(root, 'rules.cjs'), 'module.exports = { forbidden: [], options: {} };\n');
  for (const [file, imports] of Object.entries(files)) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    const lines = imports.map((target, i) => {
      const from = dirname(file)
        .split('/')
        .map(() => '..')
        .join('/');
      return `import * as m${i} from '${from}/${target}';\nexport const use${i} = m${i};`;
    });
    writeFileSync(join(root, file), `${lines.join('\n')}\nexport const here = 1;\n`);
  }
  return root;
}

function lintDeps(dir: string) {
  const run = spawnSync(process.execPath, [RULES, 'src', '--config', 'rules.cjs'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('the module-cycle rule of lint:deps', { timeout: 120_000 }, () => {
  it('refuses two modules that reach each other through a subfolder and a file outside the modules', () => {
    const result = lintDeps(
      tree({
        'src/modules/delivery/transport/send.js': ['src/modules/hl7/build.js'],
        'src/modules/hl7/build.js': ['src/openapi/shapes.js'],
        'src/openapi/shapes.js': ['src/modules/delivery/outbox.js'],
        'src/modules/delivery/outbox.js': [],
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain('no-module-cycles');
    expect(result.output).toContain('src/modules/delivery');
    expect(result.output).toContain('src/modules/hl7');
    expect(result.output).toContain('1 module cycle(s)');
  });

  it('passes modules that depend one way, and a cycle among one module’s own subfolders', () => {
    const result = lintDeps(
      tree({
        'src/modules/pipeline/advance.js': ['src/modules/notes/store.js', 'src/modules/pipeline/steps/extract.js'],
        'src/modules/pipeline/steps/extract.js': ['src/modules/pipeline/advance.js'],
        'src/modules/notes/store.js': ['src/lib/ids.js'],
        'src/lib/ids.js': [],
      }),
    );
    expect(result.output).toContain('no module cycles (2 modules under src/modules/)');
    expect(result.status).toBe(0);
  });

  it('does not count the composition root (files directly in src/) as a way between modules', () => {
    const result = lintDeps(
      tree({
        'src/modules/calls/place.js': ['src/app-deps.js'],
        'src/app-deps.js': ['src/modules/centers/list.js'],
        'src/modules/centers/list.js': ['src/modules/calls/place.js'],
      }),
    );
    // centers -> calls is direct; calls -> centers only through the root: no cycle.
    expect(result.status).toBe(0);
  });
});
