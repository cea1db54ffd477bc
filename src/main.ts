import { startServer } from './server.js';

// `npm start`: the service in the role ROLE names (server.ts has the boot and the shutdown).
startServer().catch((err: Error) => {
  process.stderr.write(`Start-up failed: ${err.message}\n`);
  process.exit(1);
});
