#!/usr/bin/env node
// The `savekit` executable (npm links bin/savekit.js, which imports this once it is built).
import { runCli } from './program.js';

// A closed pipe (`savekit dump x | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

process.exitCode = await runCli(process.argv.slice(2));
