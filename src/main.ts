import { startServer } from './server.js';

// `npm start`: the service in the role ROLE names (server.ts has the boot and the shutdown).
startServer().catch((err: unknown) => {
  // One line: the reason (a StartupError says what to do), never a stack.
  const reason = err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
  process.stderr.write(`Start-up failed: ${reason}\n`);
  process.exit(1);
});
