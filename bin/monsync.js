#!/usr/bin/env node
// Thin shim so the published bin works without a TypeScript runtime.
import { main } from '../dist/cli/main.js';

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
