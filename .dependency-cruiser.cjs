/**
 * The house's dependency rule (README "Architecture"): modules -> jobs -> db/lib, never back, and
 * no import circles, no two modules that depend on each other. `npm run lint` checks it
 * (tools/lint/dependency-rules.mjs); a new upward import fails the tests.
 */
const INFRASTRUCTURE = '^src/(jobs|db|lib|http|engine|terminology|metrics|outbound-events)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: one of the two files should not know the other.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'intake-not-to-features',
      severity: 'error',
      comment:
        'The intake (inbound-events) stores, queues and processes events through the types it is given (event-registry.ts): features import it, never the reverse.',
      from: { path: '^src/modules/inbound-events/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/inbound-events/' },
    },
    // `no-module-cycles` (no two feature modules depend on each other, directly or through others) is
    // checked by tools/lint/dependency-rules.mjs on this cruise's result, every module counted whole
    // with its subfolders: a `scope: 'folder'` rule sees each subfolder as its own node and missed
    // outbound-webhooks/transport -> hl7 -> pipeline -> outbound-webhooks/outbox.
    {
      name: 'infrastructure-not-to-modules',
      severity: 'error',
      comment: 'Infrastructure serves the feature modules and never reaches into one: pass what it needs in.',
      from: { path: INFRASTRUCTURE },
      to: { path: '^src/modules/' },
    },
    {
      name: 'below-jobs-not-to-jobs',
      severity: 'error',
      comment: 'db, lib, http, the engine and the outbound event contracts sit below the jobs.',
      from: { path: '^src/(db|lib|http|engine|terminology|outbound-events)/' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'nothing-to-composition-root',
      severity: 'error',
      comment:
        'Only the composition root (main, server, runtime, app, the job, event and transport registries, the job runner and its thread, the CLI) assembles the modules.',
      from: { path: '^src/(modules|jobs|db|lib|http|engine|terminology|metrics|outbound-events)/' },
      to: {
        path: '^src/(main|server|runtime|app|job-registry|event-registry|transport-registry|job-runner|job-runner-thread|job-runner-thread-entry)\\.ts$|^src/cli/',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
