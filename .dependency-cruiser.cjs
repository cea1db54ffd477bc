/**
 * The house's dependency rule (README "Architecture"): modules -> jobs -> db/lib, never back, and
 * no import circles. `npm run lint` checks it; a new upward import fails the tests.
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
        'Only the composition root (main, server, runtime, app, the job registry, the workers and their thread, the CLI) assembles the modules.',
      from: { path: '^src/(modules|jobs|db|lib|http|engine|terminology|metrics|outbound-events)/' },
      to: { path: '^src/(main|server|runtime|app|job-registry|workers|workers-thread|workers-thread-entry)\\.ts$|^src/cli/' },
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
