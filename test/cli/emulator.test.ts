/**
 * `monsync emulator` as a user runs it: the built CLI in a child process. dist/ is built through
 * the shared lock-and-stamp helper, so this suite never rewrites dist/ while another one runs the
 * CLI from it; if no dist/ can be produced, the tests are skipped with the reason.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist } from '../ci/build.js';
import { basicAuth } from '../helpers/emulator.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'bin/monsync.js');
let buildProblem: string | null = null;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'monsync-cli-'));
  try {
    await buildDist();
  } catch (err) {
    buildProblem = `could not build dist/: ${err instanceof Error ? err.message.slice(0, 500) : String(err)}`;
  }
  if (!buildProblem && !existsSync(join(root, 'dist/cli/emulator.js'))) buildProblem = 'dist/cli/emulator.js was not built';
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: string[];
  stderr: () => string;
  exit: Promise<number | null>;
}

function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [bin, 'emulator', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const stdout: string[] = [];
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; stderr: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout.push(line);
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ child, url: m[1] as string, stdout, stderr: () => stderr, exit });
      }
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening; stderr: ${stderr}`));
    });
  });
}

function runToExit(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, 'emulator', ...args], { cwd: root, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const auth = basicAuth('demo@example.com', 'demo-password');

describe('monsync emulator', () => {
  it('prints one listening line, serves the API, and stops on SIGTERM', async (ctx) => {
    if (buildProblem) ctx.skip(buildProblem);
    const emu = await start(['--port', '0']);
    const res = await fetch(`${emu.url}/v1/Status/`, { headers: { authorization: auth } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { monitor_list: unknown[] }).monitor_list).toHaveLength(4);
    expect(emu.stderr()).toContain('demo@example.com / demo-password');
    expect(emu.stderr()).toContain('demo-client / demo-secret');
    expect(emu.stderr()).toContain(`export MONSYNC_URL=${emu.url}`);
    emu.child.kill('SIGTERM');
    expect(await emu.exit).toBe(0);
    expect(emu.stdout).toEqual([`listening on ${emu.url}`]);
  });

  it('keeps state across a restart with --state, flushing on SIGINT', async (ctx) => {
    if (buildProblem) ctx.skip(buildProblem);
    const statePath = join(dir, 'state.json');
    const a = await start(['--port', '0', '--state', statePath, '--seed', 'empty']);
    const created = await fetch(`${a.url}/v1/Config/Group/`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'survivor' }),
    });
    expect(created.status).toBe(200);
    a.child.kill('SIGINT');
    expect(await a.exit).toBe(0);
    expect(JSON.parse(readFileSync(statePath, 'utf8')).groups).toEqual([{ id: '301', name: 'survivor', monitors: [] }]);

    const b = await start(['--port', '0', '--state', statePath]);
    const list = await fetch(`${b.url}/v1/Config/Group/`, { headers: { authorization: auth } });
    expect(((await list.json()) as { groups: unknown[] }).groups).toEqual([{ id: '301', name: 'survivor' }]);
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
  });

  it.for([
    [['--port', 'abc'], /^Error: --port must be a number/],
    [['--port', '70000'], /^Error: --port must be a number/],
    [['--seed', 'fancy'], /^Error: --seed must be default or empty/],
  ] as const)('rejects bad options %j with one line, the usage hint and no stack: exit 2', ([args, message], ctx) => {
    if (buildProblem) ctx.skip(buildProblem);
    const r = runToExit([...args]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/\n\(run with --help for usage\)\n$/);
  });

  it('rejects an unreadable or corrupt state file with one line and no stack', (ctx) => {
    if (buildProblem) ctx.skip(buildProblem);
    const corrupt = join(dir, 'corrupt.json');
    writeFileSync(corrupt, '{"format": ');
    for (const path of [corrupt, dir]) {
      const r = runToExit(['--port', '0', '--state', path]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^Error: (state file .* is corrupt|cannot read state file .*: it is a directory)/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
