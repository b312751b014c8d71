#!/usr/bin/env node
// Thin shim so the published bin works without a TypeScript runtime.
import module from 'node:module';

// Node's compile cache (22.1 and later; absent on 20): the compiled code of monsync's modules and its
// dependencies is kept under the OS's temporary directory (node-compile-cache, or NODE_COMPILE_CACHE)
// and reused by the next run. Measured (docs/performance.md): validate of examples/realistic 11-14%
// less CPU on 22, 24 and 26, a plan of 50 monitors 5-21%. Enabled before the CLI is imported, so
// that every module after this one is cached. A promise, not a top-level await: the single executable
// bundles this file as CommonJS (scripts/build-binary.mjs), where a top-level await does not exist.
module.enableCompileCache?.();
const loaded = import('../dist/cli/main.js');

// A reader that stops early (`monsync plan | head`) closes the pipe: the output is no longer
// wanted, which is not an error of monsync (Node would print EPIPE with a stack trace).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

loaded.then(({ main }) => main(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // main() turns every expected failure into a message and an exit code; reaching here is a bug in monsync.
    process.stderr.write(`monsync: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
