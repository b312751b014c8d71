/**
 * .pre-commit-hooks.yaml, installed and run by a real pre-commit (the Python tool: Debian's
 * `pre-commit`, which .ci/run installs when missing), in a sample Git repository: `pre-commit try-repo`
 * against a local clone of this checkout's files, then `pre-commit run` with a .pre-commit-config.yaml
 * naming that clone and its commit (try-repo installs into a store of its own on every run; `run`
 * installs once into this suite's PRE_COMMIT_HOME). pre-commit installs a `language: node` hook as it
 * would from GitHub (`npm install` in the clone, which runs the `prepare` build, then `npm pack` and a
 * global install of the tarball into its own environment), so the test needs the npm registry (or its
 * cache) and nothing else. Both hooks are offline: a service that records every request stays untouched.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, ROOT, buildDist } from './build.js';

interface Hook {
  id: string;
  entry: string;
  language: string;
}

const hooks = parse(await readFile(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
let temp: string;
let repo: string;
let hookRepo: string;
let server: Server;
let url: string;
const requests: string[] = [];

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** A Git repository holding this checkout's files as they are on disk (tracked and new, not ignored). */
async function cloneOfCheckout(dir: string): Promise<void> {
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')
    .split('\0')
    // node_modules is a symlink in a worktree: not a directory to .gitignore's `node_modules/`.
    .filter((f) => f && f !== 'node_modules');
  await mkdir(dir);
  for (const f of files) {
    await mkdir(dirname(join(dir, f)), { recursive: true });
    await cp(join(ROOT, f), join(dir, f)).catch((err: NodeJS.ErrnoException) => {
      // A file deleted in the checkout but not yet from the index is not part of it.
      if (err.code !== 'ENOENT') throw err;
    });
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'monsync as it is on disk');
}

beforeAll(async () => {
  // Fails the suite when pre-commit is missing: a skipped install test would prove nothing.
  execFileSync('pre-commit', ['--version']);
  await buildDist();
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  temp = await mkdtemp(join(tmpdir(), 'monsync-pre-commit-'));
  await mkdir(join(temp, 'home'));
  hookRepo = join(temp, 'monsync');
  await cloneOfCheckout(hookRepo);
  repo = join(temp, 'sample');
  await mkdir(repo);
  await cp(join(ROOT, 'examples', 'small'), join(repo, 'monitoring'), { recursive: true });
  await mkdir(join(repo, '.github'));
  // YAML that is not monsync's: no hook may touch it.
  await writeFile(join(repo, '.github', 'ci.yml'), 'on:   push\njobs: {}\n');
  // The sample as its owner keeps it: formatted (examples/small writes `on` unquoted, fmt quotes it).
  execFileSync(process.execPath, [BIN, 'fmt', 'monitoring/'], { cwd: repo });
  const rev = git(hookRepo, 'rev-parse', 'HEAD').trim();
  await writeFile(join(repo, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hookRepo}\n    rev: ${rev}\n    hooks:\n      - id: monsync-validate\n      - id: monsync-fmt\n`);
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 't');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'sample');
}, 240_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (temp) await rm(temp, { recursive: true, force: true });
});

/**
 * `pre-commit run <id>` in the sample (`try-repo <clone> <id>` with `tryRepo`): the staged files, or
 * every file with `all`. The first `run` installs the hooks' environment; later runs reuse it.
 */
function runHook(id: string, all = false, tryRepo = false): Promise<{ passed: boolean; code: number; output: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MONSYNC_') && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    // pre-commit takes a `node` under the home directory for a version manager's shim and installs a Node of its
    // own from nodejs.org instead (no network here: the hook install failed). The Node of the line under test is
    // under ~/.cache (scripts/node-line.mjs), so pre-commit gets a home of its own; npm keeps the user's.
    HOME: join(temp, 'home'),
    npm_config_userconfig: process.env.npm_config_userconfig ?? join(homedir(), '.npmrc'),
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    PRE_COMMIT_HOME: join(temp, 'pre-commit-home'),
    NO_COLOR: '1',
    MONSYNC_URL: url,
    MONSYNC_USERNAME: 'u@example.com',
    MONSYNC_PASSWORD: 'p',
  });
  const args = [...(tryRepo ? ['try-repo', hookRepo] : ['run']), id, '--color', 'never', ...(all ? ['--all-files'] : [])];
  return new Promise((resolve) => {
    execFile('pre-commit', args, { cwd: repo, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ passed: code === 0, code, output: stdout + stderr });
    });
  });
}

describe('the pre-commit hooks', () => {
  it('are monsync-validate and monsync-fmt, installed as a node package', () => {
    expect(hooks.map((h) => [h.id, h.entry, h.language])).toEqual([
      ['monsync-validate', 'monsync validate', 'node'],
      ['monsync-fmt', 'monsync fmt', 'node'],
    ]);
  });

  it('install with `pre-commit try-repo` from a clone, as from a release: the hook passes on a valid configuration', async () => {
    const tried = await runHook('monsync-validate', true, true);
    expect(tried.output).not.toMatch(/An unexpected error has occurred/);
    expect(tried, tried.output).toMatchObject({ passed: true });
    expect(tried.output).toMatch(/^monsync validate\.+Passed$/m);
  }, 900_000);

  it('install with `pre-commit run` from a configuration naming the repository, pass on a formatted, valid configuration, and never contact the service', async () => {
    const validate = await runHook('monsync-validate', true);
    expect(validate.output).not.toMatch(/An unexpected error has occurred/);
    expect(validate, validate.output).toMatchObject({ passed: true });
    expect(validate.output).toMatch(/^monsync validate\.+Passed$/m);
    const fmt = await runHook('monsync-fmt', true);
    expect(fmt, fmt.output).toMatchObject({ passed: true });
    expect(fmt.output).toMatch(/^monsync fmt\.+Passed$/m);
    expect(requests).toEqual([]);
  }, 900_000);

  it('monsync-fmt fails the commit of a file out of layout and formats it, so the next run passes; other YAML is not its business', async () => {
    const file = join(repo, 'monitoring', 'monsync.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('    ip_address: mx\n', '    ip_address:     mx\n'));
    git(repo, 'add', 'monitoring/monsync.yaml');
    const first = await runHook('monsync-fmt');
    expect(first.passed, first.output).toBe(false);
    expect(first.output).toContain('files were modified by this hook');
    expect(await readFile(file, 'utf8')).toBe(text);
    git(repo, 'add', 'monitoring/monsync.yaml');
    const second = await runHook('monsync-fmt');
    expect(second.passed, second.output).toBe(true);
    await writeFile(join(repo, '.github', 'ci.yml'), 'on:    push\njobs: {}\n');
    git(repo, 'add', '.github/ci.yml');
    const other = await runHook('monsync-fmt');
    expect(other.output).toMatch(/^monsync fmt\.+\(no files to check\)Skipped$/m);
    expect(await readFile(join(repo, '.github', 'ci.yml'), 'utf8')).toBe('on:    push\njobs: {}\n');
    git(repo, 'commit', '-qm', 'formatted');
    expect(requests).toEqual([]);
  }, 600_000);

  it('monsync-validate fails a commit whose new file repeats a label of another file, at its file and line, offline', async () => {
    await writeFile(join(repo, 'monitoring', 'groups.yaml'), 'version: 1\nmonitors:\n  - label: mx-primary\n    ip_address: mx\n    test_account: probe@example.com\n');
    git(repo, 'add', 'monitoring/groups.yaml');
    const r = await runHook('monsync-validate');
    expect(r.passed).toBe(false);
    expect(r.code).toBe(1);
    expect(r.output).toContain('monitor label "mx-primary" is already defined at monitoring/groups.yaml:3:12');
    expect(requests).toEqual([]);
    git(repo, 'rm', '-q', '--cached', 'monitoring/groups.yaml');
    await rm(join(repo, 'monitoring', 'groups.yaml'));
  }, 600_000);
});
