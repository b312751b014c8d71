/**
 * Which node the bench runs the measured processes (and its emulator) under: `--node LINE` on the
 * command line (e.g. `npm run bench -- --node 24`) or MONSYNC_BENCH_NODE, one of the pinned lines of
 * scripts/node-line.mjs (fetched once into its cache), or several separated by commas where a script
 * measures each line in turn; without either, the node running the bench.
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeLine } from '../../scripts/node-line.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Takes `--node VALUE` (or `--node=VALUE`) out of `argv` (in place) and returns VALUE, or undefined. */
export function takeNodeOption(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--node') return argv.splice(i, 2)[1];
    if (argv[i].startsWith('--node=')) return argv.splice(i, 1)[0].slice('--node='.length);
  }
  return undefined;
}

/** The nodes asked for (`given`, else MONSYNC_BENCH_NODE, else this one), each with its line and version. */
export function benchNodes(given = process.env.MONSYNC_BENCH_NODE) {
  if (given === undefined || given === '') return [{ line: process.versions.node.split('.')[0], version: process.versions.node, node: process.execPath }];
  return given.split(',').map((line) => {
    // A path is taken as it is (a wrapper such as `valgrind ... node "$@"`), a number as a pinned line.
    const node = line.trim().startsWith('/') ? line.trim() : nodeLine(line.trim());
    const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8', cwd: ROOT }).trim();
    return { line: line.trim(), version, node };
  });
}

/** The one node a script that measures a single line runs under (the first one asked for). */
export function benchNode(given) {
  return benchNodes(given)[0];
}

