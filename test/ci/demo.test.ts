/**
 * `npm run demo` (scripts/demo.js) end to end: the real emulator process, the real CLI.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildDist, runNode } from './build.js';

const DEMO = join(ROOT, 'scripts', 'demo.js');

function demoEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MONSYNC_') && k !== 'FORCE_COLOR') env[k] = v;
  // A real account's settings in the developer's shell must not reach the demo's commands.
  return { ...env, NO_COLOR: '1', MONSYNC_URL: 'http://127.0.0.1:9', MONSYNC_PASSWORD: 'not-the-demo-one' };
}

function emulatorUrl(stdout: string): string {
  const m = /Emulator listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  return m![1]!;
}

/** True once nothing accepts connections at the URL any more. */
async function isStopped(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_emulator/clock`, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

/** A copy of the package layout whose examples/realistic is `files`: for the failure paths. */
async function packageWith(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'monsync-demo-'));
  for (const name of ['bin', 'dist', 'node_modules', 'schemas']) await symlink(join(ROOT, name), join(root, name), 'dir');
  await cp(join(ROOT, 'package.json'), join(root, 'package.json'));
  await mkdir(join(root, 'scripts'));
  await cp(DEMO, join(root, 'scripts', 'demo.js'));
  await mkdir(join(root, 'examples', 'realistic'), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, 'examples', 'realistic', name), text);
  return root;
}

const temp: string[] = [];

beforeAll(async () => {
  await buildDist();
}, 240_000);

afterAll(async () => {
  for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('validates, plans, applies and ends with a plan without changes, then stops the emulator', async () => {
    const r = await runNode(DEMO, [], { cwd: ROOT, env: demoEnv(), timeoutMs: 120_000 });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toMatchObject({ code: 0 });

    const headers = [...r.stdout.matchAll(/^==> \[(\d)\/4\] .*\n {4}\$ monsync (.*)$/gm)].map((m) => m[2]);
    expect(headers).toEqual([
      'validate examples/realistic',
      'plan examples/realistic',
      'apply examples/realistic --auto-approve',
      'plan examples/realistic --detailed-exitcode',
    ]);
    const [, planned = '', applied = '', final = ''] = r.stdout.split(/^==> \[\d\/4\].*$/m).slice(1);
    expect(planned).toMatch(/Plan: [1-9]\d* to add/);
    // The plan opens with the checks' findings: realistic keeps one on purpose (submission-us has no alert).
    expect(planned).toContain('Checks: 1 warning (`monsync checks` explains them)\n  examples/realistic/americas.yaml:51:5: warning alert/missing:');
    expect(applied).toMatch(/Apply complete/);
    expect(final).toContain('No changes.');
    expect(final).not.toMatch(/to add|to change|to destroy/);
    expect(r.stdout).toContain('Demo finished');

    expect(await isStopped(emulatorUrl(r.stdout))).toBe(true);
  }, 150_000);

  it('fails with a non-zero exit when a step fails, and still stops the emulator', async () => {
    const root = await packageWith({ 'monsync.yaml': 'version: 1\nmonitors:\n  - label: x\n    timer: 7\n' });
    temp.push(root);
    const r = await runNode(join(root, 'scripts', 'demo.js'), [], { cwd: root, env: demoEnv(), timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Demo failed at step 1');
    expect(r.stdout).not.toContain('[2/4]');
    expect(await isStopped(emulatorUrl(r.stdout))).toBe(true);
  }, 90_000);

  it('stops the emulator on Ctrl-C', async () => {
    const child = spawn(process.execPath, [DEMO], { cwd: ROOT, env: demoEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        const m = /Emulator listening on (\S+)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`demo ended before the emulator started:\n${stdout}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await isStopped(url)).toBe(true);
  }, 60_000);
});
