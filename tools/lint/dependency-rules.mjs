// `npm run lint:deps`: dependency-cruiser with the rules of .dependency-cruiser.cjs, then the one
// rule it cannot state: no two feature modules (src/modules/<name>/, subfolders included) depend on
// each other, directly or through others. dependency-cruiser's `scope: "folder"` rules see every
// folder as its own node, so a cycle that enters a module through a subfolder that does not lead on
// (outbound-webhooks/transport -> hl7 -> pipeline -> outbound-webhooks/outbox) is no folder cycle
// and passed. Here each file counts as its module; a cycle among one module's own subfolders is
// that module's business.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { format } from 'dependency-cruiser';

const cli = fileURLToPath(new URL('node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url));
const args = process.argv.slice(2);
// It exits with the number of errors it found; the JSON is whole either way.
const cruise = spawnSync(process.execPath, [cli, ...args, '--output-type', 'json'], {
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024,
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (cruise.error || !cruise.stdout) {
  console.error(cruise.error ?? `dependency-cruiser exited with ${cruise.status} and no result`);
  process.exit(2);
}
const result = JSON.parse(cruise.stdout);

const report = await format(result, { outputType: 'err' });
process.stdout.write(report.output);

const cycles = moduleCycles(result.modules);
for (const cycle of cycles) {
  console.log(
    `  error no-module-cycles: ${cycle.map(({ from, via }) => `${from} (${via})`).join(' →\n      ')} →\n      ${cycle[0].from}\n`,
  );
}
if (cycles.length > 0) {
  console.log(`x ${cycles.length} module cycle(s): one module of each should not know the other.\n`);
} else {
  console.log(`✔ no module cycles (${countModules(result.modules)} modules under src/modules/)\n`);
}
process.exit(report.exitCode > 0 || cycles.length > 0 ? 1 : 0);

function moduleOf(path) {
  return /^src\/modules\/([^/]+)\//.exec(path)?.[1];
}

function countModules(files) {
  return new Set(files.map((file) => moduleOf(file.source)).filter(Boolean)).size;
}

/**
 * The module graph (an edge per pair, with one chain of file imports that makes it, directly or
 * through files outside the modules), then the shortest cycle through each module on one.
 */
function moduleCycles(files) {
  const imports = new Map(files.map((file) => [file.source, file.dependencies.map(({ resolved }) => resolved)]));
  // The module files a file reaches through files outside the modules (src/openapi/ and the like),
  // not through the composition root's files directly in src/: app-deps.ts is the type of the deps
  // every module is handed, and it names the types of the modules that serve them.
  const passable = (file) => !moduleOf(file) && !/^src\/[^/]+$/.test(file);
  const reached = (source) => {
    const found = new Map();
    const seen = new Set([source]);
    const stack = [[source, []]];
    while (stack.length > 0) {
      const [file, via] = stack.pop();
      for (const target of imports.get(file) ?? []) {
        if (seen.has(target)) continue;
        seen.add(target);
        if (moduleOf(target)) found.set(target, via);
        else if (passable(target)) stack.push([target, [...via, target]]);
      }
    }
    return found;
  };
  const edges = new Map();
  for (const file of files) {
    const from = moduleOf(file.source);
    if (!from) continue;
    for (const [target, via] of reached(file.source)) {
      const to = moduleOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, [file.source, ...via, target].join(' -> '));
    }
  }
  const next = (node) => [...(edges.get(node)?.keys() ?? [])].sort();

  const cycles = [];
  const done = new Set();
  for (const start of [...edges.keys()].sort()) {
    if (done.has(start)) continue;
    // Breadth first from `start` back to itself: the shortest cycle through it, if any.
    const cameFrom = new Map();
    const queue = [start];
    let found = false;
    while (queue.length > 0 && !found) {
      const node = queue.shift();
      for (const to of next(node)) {
        if (to === start) {
          cameFrom.set(start, node);
          found = true;
          break;
        }
        if (!cameFrom.has(to)) {
          cameFrom.set(to, node);
          queue.push(to);
        }
      }
    }
    if (!found) continue;
    const path = [];
    let node = cameFrom.get(start);
    while (node !== start) {
      path.unshift(node);
      node = cameFrom.get(node);
    }
    path.unshift(start);
    path.forEach((module) => done.add(module));
    cycles.push(
      path.map((module, i) => ({
        from: `src/modules/${module}`,
        via: edges.get(module).get(path[(i + 1) % path.length]),
      })),
    );
  }
  return cycles;
}
