/**
 * README, "Outside a clone": a project installs monsync from a packed tarball (`npm pack` in the
 * clone, `npm install -D ./monsync-VERSION.tgz` in the project) and `npx monsync` works there.
 *
 * Without network: the tarball is packed from a copy of what package.json's `files` names (dist/
 * from the test build, so no `prepare` runs), and the dependencies it needs are put into the
 * project's node_modules from this clone's before `npm install --offline`, which then finds them
 * satisfied and fetches nothing. On a user's machine npm downloads them as for any package; what
 * is tested here is the package itself: what the tarball holds, that npm installs it, and that the
 * installed command runs (validate offline, plan against an emulator).
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PKG, ROOT, buildCli, cliEnv } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

let work: string;
let project: string;
let tarball: string;
let packed: string[];
let emu: TestEmulator;
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };

beforeAll(async () => {
  await buildCli();
  emu = await startTestEmulator({ seed: 'default' });
  work = await mkdtemp(join(tmpdir(), 'monsync-install-'));

  // The clone: `npm pack` of what package.json's `files` names (README and package.json always go in).
  const stage = join(work, 'clone');
  await mkdir(stage);
  for (const entry of [...pkg.files.map((f) => f.replace(/\/$/, '')), 'package.json', 'README.md']) {
    const from = entry === 'dist' ? join(PKG, 'dist') : join(ROOT, entry);
    if (existsSync(from)) await cp(from, join(stage, entry), { recursive: true, dereference: true });
  }
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], stage);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path);

  // The project: its own package.json; the tarball's dependencies already at hand (see above).
  project = join(work, 'my-monitoring');
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'my-monitoring', private: true }, null, 2)}\n`);
  const deps = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], ROOT);
  for (const dir of deps.stdout.split('\n').filter((l) => l.startsWith(join(ROOT, 'node_modules')))) {
    const name = dir.slice(join(ROOT, 'node_modules').length + 1);
    await cp(dir, join(project, 'node_modules', name), { recursive: true });
  }
}, 300_000);

afterAll(async () => {
  await emu?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('monsync installed from a packed tarball', () => {
  it("is what README's \"In your own repository\" tells to install, by its file name", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install -D ./vendor/${pkg.name}-${pkg.version}.tgz`);
    expect(readme).toContain(`writes ${pkg.name}-${pkg.version}.tgz`);
  });

  it('packs the built command, the schemas, the examples and the docs README links to, and no sources or tests', () => {
    expect(tarball.endsWith(`${pkg.name}-${pkg.version}.tgz`)).toBe(true);
    for (const f of ['bin/monsync.js', 'dist/cli/main.js', 'schemas/monsync.schema.json', 'examples/realistic/settings.yaml', 'package.json', 'README.md', 'CHANGELOG.md', 'docs/commands.md', 'docs/configuration.md']) {
      expect(packed).toContain(f);
    }
    expect(packed.filter((f) => /^(src|test|scripts)\//.test(f))).toEqual([]);
  });

  it('installs with `npm install -D ./monsync-VERSION.tgz`, offline, and `npx monsync` runs: validate, then plan against an emulator', async () => {
    const install = await run('npm', ['install', '-D', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
    expect(install.code, install.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies[pkg.name]).toMatch(/^file:.*\.tgz$/);

    const npx = (args: string[]) => run('npx', ['--offline', '--no-install', 'monsync', ...args], project, cliEnv(emu.url));
    const version = await npx(['--version']);
    expect([version.code, version.stdout.trim()]).toEqual([0, pkg.version]);
    const examples = 'node_modules/monsync/examples/realistic';
    const valid = await npx(['validate', examples]);
    expect([valid.code, valid.stdout]).toEqual([0, 'Valid: 4 files, 8 monitors, 10 alerts, 4 groups.\n']);
    const plan = await npx(['plan', examples, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/^Plan: 22 to add, 0 to change, 0 to destroy\.$/m);
  });
});
