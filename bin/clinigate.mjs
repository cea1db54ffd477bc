#!/usr/bin/env node
// `npx clinigate` from a checkout: the built CLI (dist/, made by `npm start` or `npm run build`),
// else the TypeScript sources through tsx, so the command works before the first build too. (npx
// links this file once per checkout; a bin pointing into dist/ would stay unlinked if npx ran first.)
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('error: clinigate is not built: run npm run build (or npm start) first\n');
    process.exit(1);
  }
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
