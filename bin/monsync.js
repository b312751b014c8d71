#!/usr/bin/env node
// Thin shim so the published bin works without a TypeScript runtime.
import { main } from '../dist/cli/main.js';

// A reader that stops early (`monsync plan | head`) closes the pipe: the output is no longer
// wanted, which is not an error of monsync (Node would print EPIPE with a stack trace).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // main() turns every expected failure into a message and an exit code; reaching here is a bug in monsync.
    process.stderr.write(`monsync: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
