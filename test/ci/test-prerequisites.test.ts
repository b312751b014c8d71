/**
 * README's test command on a fresh Debian or Ubuntu machine that has only Node and npm (issue 43): `npm test`
 * first runs scripts/test-prerequisites.mjs (`pretest`), which installs the programs the suite drives, or names
 * each missing one with its Debian package and stops before any test. apt-get and sudo are stand-ins here
 * (scripts on a PATH of the test's own) that record their arguments: the real ones would change this machine.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { PROGRAMS, ensurePrerequisites } from '../../scripts/test-prerequisites.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'test-prerequisites.mjs');
type Program = { program: string; pkg: string };
const programs = PROGRAMS as Program[];
const ALL_PACKAGES = [...new Set(programs.map((p) => p.pkg))].sort();

let dir: string;
let bin: string;
let log: string;
let chromium: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'monsync-prereq-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  log = join(dir, 'calls.log');
  chromium = join(dir, 'chromium', 'chromium');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** An apt-get that records each call (with DEBIAN_FRONTEND) and "installs" a package by putting its programs on PATH. */
function fakeAptGet(exitCode = 0): void {
  const installs = programs
    .map((p) => (p.program === 'chromium' ? `[ "$p" = chromium ] && { /bin/mkdir -p "${dirname(chromium)}"; printf '#!/bin/sh\\n' > "${chromium}"; /bin/chmod +x "${chromium}"; }` : `[ "$p" = ${p.pkg} ] && { printf '#!/bin/sh\\n' > "${bin}/${p.program}"; /bin/chmod +x "${bin}/${p.program}"; }`))
    .join('\n    ');
  script(
    'apt-get',
    `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND uid-arg" >> "${log}"
[ ${exitCode} -ne 0 ] && exit ${exitCode}
if [ "$1" = install ]; then
  for p in "$@"; do
    ${installs}
    true
  done
fi
exit 0`,
  );
}

const env = (extra: Record<string, string> = {}) => ({ PATH: bin, CHROMIUM_PATH: chromium, ...extra });
const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

function ensure(uid: number, e = env()): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = ensurePrerequisites({ env: e, uid, log: (l: string) => lines.push(l) }) as number;
  return { code, lines };
}

const missingLine = (p: Program) => `test prerequisites: ${p.program} is missing: install the Debian package ${p.pkg} (`;

describe('scripts/test-prerequisites.mjs', () => {
  it('with none of the programs and no apt-get: one line per missing program naming its Debian package, and exit 1', () => {
    const r = spawnSync(process.execPath, [SCRIPT], { env: env(), encoding: 'utf8' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.slice(0, -1).map((l) => l.slice(0, l.indexOf('(') + 1))).toEqual(programs.map(missingLine));
    expect(lines.at(-1)).toBe(`test prerequisites: cannot install them here: no apt-get on PATH (not Debian or Ubuntu). Run: sudo apt-get install ${ALL_PACKAGES.join(' ')}; no test was run`);
    expect(r.stdout).toBe('');
  });

  it('as root with apt-get: one update and one install of the missing packages, non-interactive, then exit 0 once they are found', () => {
    fakeAptGet();
    // pre-commit and git already there: not installed again.
    script('pre-commit', 'exit 0');
    script('git', 'exit 0');
    const { code, lines } = ensure(0);
    const packages = ALL_PACKAGES.filter((p) => p !== 'pre-commit' && p !== 'git');
    expect(calls()).toEqual([`apt-get update -qq DEBIAN_FRONTEND=noninteractive uid-arg`, `apt-get install -y -qq ${packages.join(' ')} DEBIAN_FRONTEND=noninteractive uid-arg`]);
    expect(lines).toEqual([expect.stringMatching(/^test prerequisites: installing bsdutils chromium faketime openssl prometheus shellcheck \(chromium, prometheus, promtool, shellcheck, faketime, openssl, script missing\)$/)]);
    expect(code).toBe(0);
  });

  it('with every program there: nothing printed, apt-get never run', () => {
    fakeAptGet();
    for (const p of programs) if (p.program !== 'chromium') script(p.program, 'exit 0');
    mkdirSync(dirname(chromium));
    writeFileSync(chromium, '#!/bin/sh\n');
    chmodSync(chromium, 0o755);
    const r = spawnSync(process.execPath, [SCRIPT], { env: env(), encoding: 'utf8' });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(calls()).toEqual([]);
  });

  it('when apt-get fails: the programs still missing, each on its line, the failure named, exit 1', () => {
    fakeAptGet(100);
    const { code, lines } = ensure(0);
    expect(code).toBe(1);
    expect(calls()).toEqual([`apt-get update -qq DEBIAN_FRONTEND=noninteractive uid-arg`]);
    expect(lines.filter((l) => l.includes(' is missing: ')).length).toBe(programs.length);
    expect(lines.at(-1)).toContain('cannot install them here: apt-get failed (exit 100)');
  });

  it('not root: apt-get through `sudo -n` when sudo needs no password, never a sudo that could prompt', () => {
    fakeAptGet();
    // A password-less sudo: runs the command (`true` is a builtin, which exec does not find on this PATH).
    script('sudo', `echo "sudo $*" >> "${log}"\n[ "$1" = -n ] || exit 2\nshift\n[ "$1" = true ] && exit 0\nexec "$@"`);
    const { code, lines } = ensure(1000);
    expect({ code, lines: lines.slice(1) }).toEqual({ code: 0, lines: [] });
    expect(calls().map((c) => c.replace(/ DEBIAN_FRONTEND=.*/, ''))).toEqual([
      'sudo -n true',
      'sudo -n apt-get update -qq',
      'apt-get update -qq',
      `sudo -n apt-get install -y -qq ${ALL_PACKAGES.join(' ')}`,
      `apt-get install -y -qq ${ALL_PACKAGES.join(' ')}`,
    ]);
  });

  it('not root, and sudo absent or asking for a password: says why, never runs apt-get, exit 1', () => {
    fakeAptGet();
    let r = ensure(1000);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toContain('cannot install them here: not root, and no sudo.');
    script('sudo', `echo "sudo $*" >> "${log}"\necho "sudo: a password is required" >&2\nexit 1`);
    r = ensure(1000);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toContain('cannot install them here: not root, and sudo asks for a password');
    expect(calls()).toEqual(['sudo -n true']);
  });
});

describe('README\'s test command on a machine without the programs', () => {
  it('`npm test` stops before any test, exit non-zero, with the lines of the missing programs', () => {
    // node and npm only, as on a fresh machine (and the shell npm runs scripts with).
    symlinkSync(process.execPath, join(bin, 'node'));
    const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(realpathSync(npm), join(bin, 'npm'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    const r = spawnSync(join(bin, 'npm'), ['test', '--silent'], { cwd: ROOT, env: { ...env(), HOME: dir, npm_config_cache: join(dir, 'npm-cache') }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(missingLine(programs.find((p) => p.program === 'shellcheck')!));
    expect(r.stderr).toContain('no test was run');
    // vitest never started.
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/RUN|Test Files|vitest/);
  });

  it('is run by `npm test` (pretest) and `npm run test:line`, and .ci/run uses it instead of an apt-get of its own', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toBe('node scripts/test-prerequisites.mjs');
    expect(readFileSync(join(ROOT, 'scripts', 'test-line.mjs'), 'utf8')).toContain("from './test-prerequisites.mjs'");
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain('node scripts/test-prerequisites.mjs');
    expect(ci).not.toMatch(/apt-get (install|update)/);
  });
});
