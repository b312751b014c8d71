#!/usr/bin/env node
/**
 * The programs the test suite drives, installed before any test runs (`npm test`'s `pretest`, `.ci/run`,
 * `npm run test:line`), so that a missing one is one line up front and never an ENOENT or a timeout inside a
 * test (issue 43).
 *
 *   node scripts/test-prerequisites.mjs
 *
 * Every program found: exit 0, nothing printed. Some missing: when apt-get is on PATH and this process is root,
 * or `sudo -n` works (a password prompt would hang a CI job, so never `sudo` without -n), one `apt-get update`
 * and one `apt-get install -y` of their Debian packages, then the programs are looked for again. Whatever is
 * still missing (no apt-get: not Debian or Ubuntu; no root and no password-less sudo; apt-get failed) is one line
 * per program naming the Debian package, then the apt-get command that installs them all, on stderr; exit 1, so
 * npm does not start the tests.
 *
 * Chromium is looked for where test/helpers/chromium.ts starts it: $CHROMIUM_PATH, or /usr/bin/chromium (where
 * Debian's package puts it); every other program on PATH.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the suite runs, the Debian package that has it, and which tests need it. */
export const PROGRAMS = [
  { program: 'chromium', pkg: 'chromium', for: 'test/docs-ui: the API docs page and the HTML report' },
  { program: 'prometheus', pkg: 'prometheus', for: 'test/e2e/exporter.test.ts: monsync exporter scraped' },
  { program: 'promtool', pkg: 'prometheus', for: 'test/e2e/exporter.test.ts: the metrics and the alerting rules' },
  { program: 'pre-commit', pkg: 'pre-commit', for: 'test/ci/pre-commit.test.ts: the hooks installed' },
  { program: 'shellcheck', pkg: 'shellcheck', for: "test/ci/action.test.ts: the action's and the component's bash" },
  { program: 'faketime', pkg: 'faketime', for: ".ci/run: the unit tests 400 days later" },
  { program: 'git', pkg: 'git', for: 'test/ci/pre-commit.test.ts, test/e2e/plan.test.ts: repositories' },
  { program: 'openssl', pkg: 'openssl', for: "test/ops/doctor.test.ts: a server's certificate" },
  { program: 'script', pkg: 'bsdutils', for: 'test/e2e/terminal.test.ts: a terminal' },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path `name` runs from under `env`'s PATH, or null. */
export function which(name, env) {
  for (const dir of String(env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The programs of PROGRAMS not found under `env`. */
export function missingPrograms(env) {
  return PROGRAMS.filter(({ program }) => (program === 'chromium' ? !executable(env.CHROMIUM_PATH || '/usr/bin/chromium') : which(program, env) === null));
}

/**
 * How to run apt-get: `['apt-get']` as root, `['sudo', '-n', 'apt-get']` when sudo runs without a password, or
 * a reason why it cannot be run.
 */
export function installer(env, uid) {
  if (which('apt-get', env) === null) return { reason: 'no apt-get on PATH (not Debian or Ubuntu)' };
  if (uid === 0) return { command: ['apt-get'] };
  if (which('sudo', env) === null) return { reason: 'not root, and no sudo' };
  const probe = spawnSync('sudo', ['-n', 'true'], { env, stdio: 'ignore', timeout: 30_000 });
  if (probe.status !== 0) return { reason: 'not root, and sudo asks for a password (sudo -n true failed)' };
  return { command: ['sudo', '-n', 'apt-get'] };
}

const packagesOf = (programs) => [...new Set(programs.map((p) => p.pkg))].sort();

/** Checks, installs what it can, and returns the exit code; `log` takes the lines for stderr. */
export function ensurePrerequisites({ env = process.env, uid = process.getuid?.() ?? -1, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  let missing = missingPrograms(env);
  if (missing.length === 0) return 0;
  const how = installer(env, uid);
  let why = how.reason;
  if (how.command) {
    const packages = packagesOf(missing);
    log(`test prerequisites: installing ${packages.join(' ')} (${missing.map((p) => p.program).join(', ')} missing)`);
    const [cmd, ...pre] = how.command;
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const run = (args) => spawnSync(cmd, [...pre, ...args], { env: aptEnv, stdio: ['ignore', 'inherit', 'inherit'] });
    const update = run(['update', '-qq']);
    const install = update.status === 0 ? run(['install', '-y', '-qq', ...packages]) : update;
    if (install.status !== 0) why = `${how.command.join(' ')} failed (exit ${install.status ?? install.signal ?? install.error?.code})`;
    missing = missingPrograms(env);
    if (missing.length === 0) return 0;
    why ??= `${how.command.join(' ')} installed ${packages.join(' ')}, yet they are not found`;
  }
  for (const p of missing) log(`test prerequisites: ${p.program} is missing: install the Debian package ${p.pkg} (${p.for})`);
  log(`test prerequisites: cannot install them here: ${why}. Run: sudo apt-get install ${packagesOf(missing).join(' ')}; no test was run`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(ensurePrerequisites());
}
