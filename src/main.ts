import { boundYoungGeneration } from './lib/young-generation.js';

// First, before the service's modules load and its heap grows (young-generation.ts): the HTTP
// thread's young generation stays near 8 MB, not V8's 32 MB (issue 28, the service's RSS).
boundYoungGeneration(8);
const { startServer } = await import('./server.js');

// `npm start`: the service in the role ROLE names (server.ts has the boot and the shutdown).
startServer().catch((err: unknown) => {
  // One line: the reason (a StartupError says what to do), never a stack.
  const reason = err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
  process.stderr.write(`Start-up failed: ${reason}\n`);
  process.exit(1);
});
