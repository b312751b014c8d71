/**
 * .pre-commit-hooks.yaml, run as pre-commit runs a hook (pre-commit itself is a Python tool, not
 * installed here): in a sample Git repository, the files of the commit (or all tracked files) that
 * match the hook's `files` pattern; `entry` split into words, then `args`, then those files unless
 * `pass_filenames: false`; `monsync` on PATH as a `language: node` hook's installed package puts it.
 * A hook fails when it exits non-zero or changes a file. Both hooks are offline: a service that
 * records every request stays untouched.
 */
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, ROOT, buildDist } from './build.js';
import { bash } from './shell.js';

interface Hook {
  id: string;
  entry: string;
  language: string;
  args?: string[];
  files?: string;
  exclude?: string;
  pass_filenames?: boolean;
}

const hooks = parse(await readFile(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
let repo: string;
let server: Server;
let url: string;
const requests: string[] = [];

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });

beforeAll(async () => {
  await buildDist();
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  repo = await mkdtemp(join(tmpdir(), 'monsync-pre-commit-'));
  await cp(join(ROOT, 'examples', 'small'), join(repo, 'monitoring'), { recursive: true });
  await mkdir(join(repo, '.github'));
  // YAML that is not monsync's: no hook may touch it.
  await writeFile(join(repo, '.github', 'ci.yml'), 'on:   push\njobs: {}\n');
  // What installing the hook repository (`language: node`) puts on PATH: the package's bin.
  await mkdir(join(repo, '.hook-env'));
  await writeFile(join(repo, '.hook-env', 'monsync'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(repo, '.hook-env', 'monsync'), 0o755);
  // The sample as its owner keeps it: formatted (examples/small writes `on` unquoted, fmt quotes it).
  execFileSync(process.execPath, [BIN, 'fmt', 'monitoring/'], { cwd: repo });
  git('init', '-q');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  await writeFile(join(repo, '.gitignore'), '.hook-env/\n');
  git('add', '-A');
  git('commit', '-qm', 'sample');
}, 240_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (repo) await rm(repo, { recursive: true, force: true });
});

/** `pre-commit run <id>` (the staged files) or `pre-commit run <id> --all-files`. */
async function runHook(id: string, all = false): Promise<{ passed: boolean; files: string[]; code: number; output: string; changed: boolean }> {
  const hook = hooks.find((h) => h.id === id)!;
  expect(hook.language).toBe('node');
  const candidates = (all ? git('ls-files') : git('diff', '--cached', '--name-only', '--diff-filter=ACMR')).split('\n').filter(Boolean);
  // pre-commit matches with Python's re.search; these patterns mean the same in JavaScript.
  const files = candidates.filter((f) => new RegExp(hook.files ?? '').test(f) && !(hook.exclude && new RegExp(hook.exclude).test(f)));
  if (files.length === 0) return { passed: true, files, code: 0, output: '(no files to check) Skipped', changed: false };
  const argv = [...hook.entry.split(/\s+/), ...(hook.args ?? []), ...(hook.pass_filenames === false ? [] : files)];
  const before = git('diff');
  const env: NodeJS.ProcessEnv = { PATH: `${join(repo, '.hook-env')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: repo, NO_COLOR: '1', MONSYNC_URL: url, MONSYNC_USERNAME: 'u@example.com', MONSYNC_PASSWORD: 'p' };
  const r = await bash(argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '), repo, env, []);
  const changed = git('diff') !== before;
  return { passed: r.code === 0 && !changed, files, code: r.code, output: r.stdout + r.stderr, changed };
}

describe('the pre-commit hooks', () => {
  it('are monsync-validate and monsync-fmt, installed as a node package', () => {
    expect(hooks.map((h) => [h.id, h.entry, h.language])).toEqual([
      ['monsync-validate', 'monsync validate', 'node'],
      ['monsync-fmt', 'monsync fmt', 'node'],
    ]);
  });

  it('pass on a formatted, valid configuration, look only at monitoring/, and never contact the service', async () => {
    const validate = await runHook('monsync-validate', true);
    expect(validate, validate.output).toMatchObject({ passed: true, files: ['monitoring/monsync.yaml'] });
    const fmt = await runHook('monsync-fmt', true);
    expect(fmt, fmt.output).toMatchObject({ passed: true, files: ['monitoring/monsync.yaml'] });
    expect(requests).toEqual([]);
  }, 60_000);

  it('monsync-fmt fails the commit of a file out of layout and formats it, so the next run passes', async () => {
    const file = join(repo, 'monitoring', 'monsync.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('    ip_address: mx\n', '    ip_address:     mx\n'));
    git('add', 'monitoring/monsync.yaml');
    const first = await runHook('monsync-fmt');
    expect(first).toMatchObject({ passed: false, changed: true, files: ['monitoring/monsync.yaml'] });
    expect(await readFile(file, 'utf8')).toBe(text);
    git('add', 'monitoring/monsync.yaml');
    expect(await runHook('monsync-fmt')).toMatchObject({ passed: true });
    expect(await readFile(join(repo, '.github', 'ci.yml'), 'utf8')).toBe('on:   push\njobs: {}\n');
    expect(requests).toEqual([]);
  }, 60_000);

  it('monsync-validate fails a commit whose new file repeats a label of another file, at its file and line, offline', async () => {
    await writeFile(join(repo, 'monitoring', 'groups.yaml'), 'version: 1\nmonitors:\n  - label: mx-primary\n    ip_address: mx\n    test_account: probe@example.com\n');
    git('add', 'monitoring/groups.yaml');
    const r = await runHook('monsync-validate');
    expect(r.passed).toBe(false);
    expect(r.code).toBe(1);
    expect(r.output).toContain('monitor label "mx-primary" is already defined at monitoring/groups.yaml:3:12');
    expect(requests).toEqual([]);
    git('rm', '-q', '--cached', 'monitoring/groups.yaml');
    await rm(join(repo, 'monitoring', 'groups.yaml'));
  }, 60_000);
});
