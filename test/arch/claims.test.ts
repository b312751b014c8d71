/**
 * The claims the command context (src/workflow/context.ts) and the driver (src/cli/driver.ts) make
 * about the house, checked against the sources (issue 44): each "only" is true because nothing
 * else does it. Read as text, comments left out, so a docblock naming a function is no call of it.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './sources.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');


/** The code of a file without its comments (strings kept: a regex literal with `//` is rare enough here). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/** The emulator stands in for the service and shares nothing with monsync: its own clients and signals are its own. */
const files = sourceFiles(SRC).filter((f) => !relative(SRC, f).startsWith(`emulator${sep}`));
const rel = (f: string) => relative(ROOT, f).split(sep).join('/');

/** The files (outside `except`) whose code matches `pattern`. */
function where(pattern: RegExp, except: (path: string) => boolean = () => false): string[] {
  return files.filter((f) => !except(rel(f)) && pattern.test(code(f))).map(rel);
}

describe('the command context is the one path to the service', () => {
  it('builds every client: api/connect.ts alone constructs one, and only the context and the library entry call it', () => {
    expect(where(/new MonitoringClient\(/)).toEqual(['src/api/connect.ts']);
    // `connect` of api/connect.ts imported (statically or lazily) as a value.
    const importsConnect = /import\s*\{[^}]*\bconnect\b[^}]*\}\s*from\s*'[./]*api\/connect\.js'|import\('[./]*api\/connect\.js'\)\)\.connect\b|\{\s*connect\s*\}[^;]*import\('[./]*api\/connect\.js'\)/;
    expect(where(importsConnect)).toEqual(['src/index.ts', 'src/workflow/context.ts']);
  });

  it('reads the account through one caller of readLive (src/workflow/account.ts)', () => {
    expect(where(/\breadLive\b/, (p) => p === 'src/plan/read-live.ts')).toEqual(['src/workflow/account.ts']);
  });

  it("reads the service's clock in one place (the context's serviceClockOffsetMs)", () => {
    // The client's own methods (`api.serviceClockOffsetMs?.()`), not the context's (`ctx.serviceClockOffsetMs(api)`).
    expect(where(/(?<!\bctx)\.serviceClock(OffsetMs|Known)\?*\.?\(/, (p) => p.startsWith('src/api/'))).toEqual(['src/workflow/context.ts']);
  });

  it("works out an account's environment and pins in one place", () => {
    const outside = (p: string) => p === 'src/api/connect.ts';
    expect(where(/\baccountEnv\(/, outside)).toEqual(['src/workflow/context.ts']);
    expect(where(/\bpinMismatch\(/, outside)).toEqual(['src/workflow/context.ts']);
    // The renaming of MONSYNC_URL and the credentials to an account's own prefix, said once (api/connect.ts, ownVariables).
    expect(where(/MONSYNC_\(URL\|USERNAME\|PASSWORD\|CLIENT_ID\|CLIENT_SECRET\)/)).toEqual(['src/api/connect.ts']);
  });

  it("handles the process's signals, and ends it, in one place (src/cli/output.ts)", () => {
    expect(where(/process\.(on|once|addListener|prependListener)\(\s*'SIG/)).toEqual(['src/cli/output.ts']);
    expect(where(/process\.exit\(/)).toEqual(['src/cli/output.ts']);
  });
});

describe('a command is options, a workflow and a view', () => {
  const cli = files.filter((f) => rel(f).startsWith('src/cli/'));

  it('is one file: no runner beside its registration', () => {
    expect(cli.map(rel).filter((p) => p.endsWith('-run.ts'))).toEqual([]);
  });

  it('declares itself through the one driver', () => {
    const registering = cli.filter((f) => /export function register\(/.test(code(f)));
    expect(registering.filter((f) => !/\bcommand<[^>]*>\(program,/.test(code(f))).map(rel)).toEqual([]);
    expect(registering.length).toBeGreaterThanOrEqual(15);
  });

  it('runs a workflow of src/workflow/ when it talks to the service', () => {
    const service = cli.filter((f) => /service: true/.test(code(f)));
    expect(service.length).toBeGreaterThanOrEqual(10);
    expect(service.filter((f) => !/\b[a-z][A-Za-z]*Flow\(/.test(code(f))).map(rel)).toEqual([]);
  });

  it('keeps its account loop in src/workflow/ (runAccounts, the one caller of forEachAccount)', () => {
    expect(where(/\bforEachAccount\(/)).toEqual(['src/workflow/run.ts']);
  });
});

describe('knowledge said once', () => {
  it('counts the alerts of a configuration in one function (model/desired.ts, alertCount)', () => {
    expect(where(/\.alerts\.length \+ [a-z]+\.monitors\.reduce/)).toEqual(['src/model/desired.ts']);
  });

  it('parses whole-number flags in one function (cli/common.ts, parseIntIn)', () => {
    expect(where(/must be a whole number/)).toEqual(['src/cli/common.ts']);
  });
});
