/**
 * monsync as one file (issue 43): the single executable `monsync-linux-x64` that
 * `npm run build:binary` makes (scripts/build-binary.mjs), run as on a machine without Node.
 *
 * The set-up builds it when it is missing or older than its sources (bundled from the private
 * .e2e-cli/ build, which no other suite rewrites meanwhile); a failed build fails every test here.
 * The executable runs from a copy outside the repository (next to the clone, a lookup relative to it
 * would find node_modules/ and schemas/ and hide a file the build failed to embed). Every run has an
 * environment of PATH alone (what `env -i PATH=DIR` gives), and DIR is an empty directory: this
 * machine has /usr/bin/node, so PATH=/usr/bin:/bin would let a stray `node` call pass. The executable
 * needs no other program, so nothing is linked in.
 *
 * Everything talks over loopback only: the executable's own emulator (127.0.0.1, port 0; a second one
 * with --tls, whose certificates node-forge makes inside the executable) and its exporter (127.0.0.1,
 * port 0), each started here and stopped here. `fmt` and `export` read the configuration schema the
 * executable embeds; /v2/docs serves the files it embeds.
 *
 * examples/container/Containerfile is checked against the same executable (the image itself is not
 * built: there is no container engine here): it copies the file the build makes, and its entrypoint's
 * arguments parse.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PKG, PASSWORD, ROOT, USERNAME, buildCli, expectCleanOutput, type CliResult } from '../helpers/cli.js';

const BINARY = join(ROOT, 'monsync-linux-x64');
const CONTAINERFILE = join(ROOT, 'examples', 'container', 'Containerfile');
/** What the executable is made of: a newer file among these makes it stale. */
const SOURCES = ['src', 'bin', 'schemas', 'scripts/build-binary.mjs', 'scripts/node-lines.json', 'package.json', 'package-lock.json'];

let base: string;
/** The copy that runs. */
let exe: string;
let bareBin: string;
let work: string;
let emulator: ChildProcess | undefined;
let url: string;

function newestSourceMs(): number {
  let newest = 0;
  const walk = (p: string): void => {
    const s = statSync(p);
    if (s.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
    else newest = Math.max(newest, s.mtimeMs);
  };
  for (const s of SOURCES) walk(join(ROOT, s));
  return newest;
}

/** The environment of every run: PATH alone, a directory with nothing in it, plus what `extra` adds. */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: bareBin, ...extra };
}

const account = (): Record<string, string> => ({ MONSYNC_URL: url, MONSYNC_USERNAME: USERNAME, MONSYNC_PASSWORD: PASSWORD, NO_COLOR: '1' });

function run(args: string[], env: NodeJS.ProcessEnv = bareEnv(account())): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/** Starts the executable and resolves with the URL of its first `listening on URL` line (stdout). */
function startListening(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(exe, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /^listening on (https?:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr, exit });
    });
    child.on('error', reject);
    void exit.then((code) => reject(new Error(`monsync ${args.join(' ')} exited (${code}) before listening:\n${stdout}\n${stderr}`)));
  });
}

async function get(target: string): Promise<{ status: number; body: Buffer }> {
  const res = await request(target);
  return { status: res.statusCode, body: Buffer.from(await res.body.arrayBuffer()) };
}

beforeAll(async () => {
  await buildCli();
  if (!existsSync(BINARY) || statSync(BINARY).mtimeMs < newestSourceMs()) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs'), '--from', PKG], { cwd: ROOT, encoding: 'utf8', timeout: 280_000 });
    if (built.status !== 0) throw new Error(`npm run build:binary failed (${built.status ?? built.signal}):\n${built.stdout}\n${built.stderr}`);
  }
  base = await mkdtemp(join(tmpdir(), 'monsync-binary-'));
  bareBin = join(base, 'bin');
  work = join(base, 'work');
  await mkdir(bareBin);
  await mkdir(work);
  exe = join(base, basename(BINARY));
  await copyFile(BINARY, exe);
  await chmod(exe, 0o755);
  await copyFile(join(ROOT, 'examples', 'small', 'monsync.yaml'), join(work, 'monsync.yaml'));
  const emu = await startListening(['emulator', '--host', '127.0.0.1', '--port', '0'], bareEnv());
  emulator = emu.child;
  url = emu.url;
}, 300_000);

afterAll(async () => {
  emulator?.kill('SIGTERM');
  if (base) await rm(base, { recursive: true, force: true });
});

describe('monsync-linux-x64, with no node on its PATH', () => {
  it('finds no node on the PATH it is given', () => {
    const found = spawnSync('/bin/sh', ['-c', 'command -v node'], { env: bareEnv(), encoding: 'utf8' });
    expect(found.status).not.toBe(0);
    expect(found.stdout).toBe('');
    expect(readdirSync(bareBin)).toEqual([]);
  });

  it('prints the version of package.json', async () => {
    const r = await run(['--version'], bareEnv());
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it("serves the emulator's /v2/docs page with the swagger-ui-dist assets and the OpenAPI description it embeds", async () => {
    const page = await get(`${url}/v2/docs`);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('/v2/docs/swagger-ui-bundle.js');
    const bundle = await get(`${url}/v2/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.body.equals(readFileSync(join(ROOT, 'node_modules', 'swagger-ui-dist', 'swagger-ui-bundle.js')))).toBe(true);
    const css = await get(`${url}/v2/docs/swagger-ui.css`);
    expect(css.body.equals(readFileSync(join(ROOT, 'node_modules', 'swagger-ui-dist', 'swagger-ui.css')))).toBe(true);
    const spec = await get(`${url}/v2/docs/openapi.json`);
    expect(spec.body.equals(readFileSync(join(ROOT, 'schemas', 'openapi.json')))).toBe(true);
  });

  it('validates, checks the format, plans, applies, then plans nothing, against its own emulator', async () => {
    const validate = await run(['validate']);
    expectCleanOutput(validate);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/^Valid: 1 file, 2 monitors/);

    const fmt = await run(['fmt', '--check']);
    expectCleanOutput(fmt);
    expect(fmt.code, fmt.stdout + fmt.stderr).toBe(0);

    const plan = await run(['plan', '--detailed-exitcode']);
    expectCleanOutput(plan);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/Plan: 4 to add, 0 to change, 0 to destroy\./);

    const apply = await run(['apply', '--auto-approve']);
    expectCleanOutput(apply);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/Apply complete: 4 added, 0 changed, 0 destroyed/);

    const again = await run(['plan', '--detailed-exitcode']);
    expectCleanOutput(again);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('exports the account into files that validate, their $schema where npm install -D monsync puts it (no schema on disk beside it)', async () => {
    const exported = await run(['export', '--out', 'exported']);
    expectCleanOutput(exported);
    expect(exported.code, exported.stderr).toBe(0);
    const first = readFileSync(join(work, 'exported', 'monsync.yaml'), 'utf8').split('\n')[0];
    expect(first).toBe('# yaml-language-server: $schema=../node_modules/monsync/schemas/monsync.schema.json');
    const validate = await run(['validate', 'exported']);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  });

  it('serves HTTPS from its emulator with a CA it makes, which its plan trusts through NODE_EXTRA_CA_CERTS', async () => {
    const ca = join(base, 'ca.pem');
    const tls = await startListening(['emulator', '--host', '127.0.0.1', '--port', '0', '--tls', '--tls-ca-file', ca], bareEnv());
    try {
      expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const plan = await run(['plan', '--detailed-exitcode'], bareEnv({ ...account(), MONSYNC_URL: tls.url, NODE_EXTRA_CA_CERTS: ca }));
      expectCleanOutput(plan);
      expect(plan.code, plan.stderr).toBe(2);
    } finally {
      tls.child.kill('SIGTERM');
    }
  });

  it('serves monsync_up 1 from its exporter to one scrape over loopback, and exits 0 on SIGTERM', async () => {
    const exporter = await startListening(['exporter', '--listen', '127.0.0.1:0'], bareEnv(account()));
    try {
      // The first read of the account is logged once it is done: scrape after that line, not after a delay.
      await new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (exporter.stderr().includes('read the account:')) resolve();
        };
        exporter.child.stderr!.on('data', check);
        check();
        void exporter.exit.then((code) => reject(new Error(`the exporter exited (${code}):\n${exporter.stderr()}`)));
      });
      const metrics = await get(`${exporter.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body.toString()).toMatch(/^monsync_up 1$/m);
    } finally {
      exporter.child.kill('SIGTERM');
    }
    expect(await exporter.exit).toBe(0);
    expect(exporter.stderr()).not.toContain(PASSWORD);
  });
});

describe('scripts/build-binary.mjs', () => {
  it('refuses a bundle that would still load a package from disk at run time, where the executable has none', async () => {
    const pkg = join(base, 'disk-require');
    await mkdir(join(pkg, 'bin'), { recursive: true });
    await mkdir(join(pkg, 'dist', 'cli'), { recursive: true });
    await writeFile(join(pkg, 'bin', 'monsync.js'), "import '../dist/cli/main.js';\n");
    // A lazy load the way render/plan-words.ts does it, but through a name the build does not rewrite.
    await writeFile(join(pkg, 'dist', 'cli', 'main.js'), "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const yaml = () => load('yaml');\n");
    const out = join(base, 'never-written');
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs'), '--from', pkg, '--output', out], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status).toBe(1);
    expect(built.stderr).toMatch(/^build-binary: the bundle still loads packages from disk at run time: .*createRequire/m);
    expect(existsSync(out)).toBe(false);
  });
});

/** The instructions of a Containerfile, continuation lines joined, comments left out. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('examples/container/Containerfile', () => {
  const steps = instructions(readFileSync(CONTAINERFILE, 'utf8'));
  const last = <T>(xs: T[]): T | undefined => xs[xs.length - 1];
  const finalStage = steps.slice(steps.map((s) => s.op).lastIndexOf('FROM'));

  it('copies the file `npm run build:binary` makes into its final image, and its entrypoint is that file', () => {
    const copies = finalStage.filter((s) => s.op === 'COPY' && !s.args.startsWith('--from')).map((s) => s.args.split(/\s+/));
    const copy = copies.find((args) => args[0] === basename(BINARY));
    expect(copy, `no COPY ${basename(BINARY)} in the final stage`).toBeDefined();
    const entry = last(finalStage.filter((s) => s.op === 'ENTRYPOINT'));
    expect(entry, 'no ENTRYPOINT').toBeDefined();
    // The exec form: the executable is PID 1 and receives SIGTERM itself (no shell in between).
    const argv = JSON.parse(entry!.args) as string[];
    expect(argv[0]).toBe(copy![1]);
  });

  it("names an entrypoint whose arguments the executable accepts: the exporter's", async () => {
    const entry = last(finalStage.filter((s) => s.op === 'ENTRYPOINT'))!;
    const [, ...args] = JSON.parse(entry.args) as string[];
    expect(args[0]).toBe('exporter');
    const r = await run([...args, '--help'], bareEnv());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: monsync exporter/);
  });

  it('gives the final image every shared library the executable needs that the base image lacks', () => {
    // ldd comes with glibc (Debian's libc-bin, an essential package).
    const needed = spawnSync('ldd', [exe], { encoding: 'utf8' });
    expect(needed.status, needed.stderr).toBe(0);
    const libs = [...needed.stdout.matchAll(/^\s*(\S+\.so\.\d+) =>/gm)].map((m) => m[1]!);
    expect(libs).toContain('libc.so.6');
    // What distroless cc (Debian 12) ships: glibc, libgcc_s and libstdc++.
    const inBase = /^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libgcc_s|libstdc\+\+)\.so/;
    const copied = finalStage.filter((s) => s.op === 'COPY' && s.args.startsWith('--from')).map((s) => s.args);
    for (const lib of libs.filter((l) => !inBase.test(l))) expect(copied.some((c) => c.includes(lib)), `${lib} is not copied into the image`).toBe(true);
  });
});
