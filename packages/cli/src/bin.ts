#!/usr/bin/env node
import * as nodeModule from 'node:module';

// Node keeps the compiled code of the CLI's modules on disk (in the temporary directory) and
// reuses it at the next start, which then takes about a third less time before the first request.
// Node 22.1 and later; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Enabled before the CLI's own
// modules load, so that they are the ones cached.
nodeModule.enableCompileCache?.();
const { run } = await import('./program.js');

// `scrub plans | head -1` closes stdout early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2));
