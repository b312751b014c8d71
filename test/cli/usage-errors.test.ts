/**
 * One rule for usage errors (docs/commands.md, "Exit codes"): a mistake in what was typed (an unknown option, a
 * bad option value, options that do not go together, a missing target) exits 2 before anything is
 * read or sent, with the message and the hint commander gives its own usage errors. Through main(),
 * as `monsync ...` runs; the service URL points at a port nobody listens on, so a request would fail
 * with another message and code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function monsync(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  vi.stubEnv('MONSYNC_URL', 'http://127.0.0.1:9');
  vi.stubEnv('MONSYNC_USERNAME', 'demo@example.com');
  vi.stubEnv('MONSYNC_PASSWORD', 'demo-password');
  vi.stubEnv('NO_COLOR', '1');
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  process.exitCode = undefined;
  const code = await main(['node', 'monsync', ...args]);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

const HINT = '(run with --help for usage)\n';

describe('usage errors exit 2, everywhere', () => {
  it.each([
    [['plan', '--format', 'yaml'], 'Error: --format must be text, json or markdown, got "yaml"'],
    [['show', 'p.json', '--format', 'yaml'], 'Error: --format must be text, json or markdown, got "yaml"'],
    [['apply', '--parallelism', '0', '--auto-approve'], 'Error: --parallelism must be a whole number of at least 1, got "0"'],
    [['apply', '--max-deletes', '-1', '--auto-approve'], 'Error: --max-deletes must be a whole number, got "-1"'],
    [['apply', 'a.yaml', '--plan', 'p.json'], 'Error: give either configuration paths or --plan FILE, not both'],
    [['apply', '--plan', 'p.json', '--target', 'mx-*'], 'Error: --target and --prune cannot be combined with --plan FILE: the saved plan already fixed them; run plan again with them'],
    [['plan', '--timeout', 'soon'], 'Error: --timeout must be a positive number of seconds, got "soon"'],
    [['data', 'mx-eu-1', '--average', 'week'], 'Error: --average must be raw, hour or day, got "week"'],
    [['drill', 'mx-eu-1', '--minutes', '0'], 'Error: --minutes must be a whole number of at least 1, got "0"'],
    [['drill', 'mx-eu-1', '--minutes', '5000'], 'Error: --minutes must be at most 1440 (a day), got 5000'],
    [['pause', '--for', '30m'], 'Error: say what to pause: --monitor LABEL (repeatable), --alert MONITOR:SUBJECT or --all'],
    [['pause', '--all', '--monitor', 'mx-eu-1', '--for', '30m'], 'Error: --all pauses every alert: give it alone, without --monitor or --alert'],
    [['pause', '--monitor', 'mx-eu-1', '--for', '1.5h'], 'Error: --for: "1.5h" has a fraction; use whole units, e.g. 90m rather than 1.5h'],
    [['resume'], 'Error: say what to resume: --monitor LABEL (repeatable), --alert MONITOR:SUBJECT or --all'],
    [['resume', '--alert', 'mx-eu-1 is DOWN'], 'Error: --alert "mx-eu-1 is DOWN": expected MONITOR:SUBJECT, the monitor\'s label and the alert\'s trigger subject, e.g. "mx-eu-1:mx-eu-1 is DOWN"'],
    [['export', '--owner', ' '], 'Error: --owner must not be empty'],
    [['emulator', '--port', 'abc'], 'Error: --port must be a number from 0 to 65535 (0 picks a free port), got "abc"'],
  ])('monsync %j', async (args, message) => {
    const r = await monsync(args);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `${message}\n${HINT}` });
  });

  it('as commander\'s own: an unknown option, a missing required one, with the one prefix every error has (Error:)', async () => {
    const unknown = await monsync(['plan', '--formt', 'json']);
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: `Error: unknown option '--formt'\n(Did you mean --format?)\n${HINT}` });
    const r = await monsync(['pause', '--monitor', 'mx-eu-1']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: required option '--for <duration>' not specified\n${HINT}` });
  });

  it('pause --help shows --for as required, in the usage line and its description', async () => {
    const r = await monsync(['pause', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: monsync pause --for <duration> (--monitor <label> | --alert <monitor:subject> | --all) [options]');
    expect(r.stdout).toMatch(/--for <duration> +\(required\) how long/);
  });

  it('exits 1 under plan --detailed-exitcode, where 2 means "changes": a usage error must not look like a plan with changes', async () => {
    for (const args of [['plan', '--format', 'yaml', '--detailed-exitcode'], ['plan', '--detailed-exitcode', '--formt', 'json']]) {
      const r = await monsync(args);
      expect(r.code).toBe(1);
      expect(r.stderr.endsWith(HINT)).toBe(true);
    }
  });

  it("Terraform's one-dash options get the monsync spelling; Terraform's -detailed-exitcode still exits 1, not 2", async () => {
    expect(await monsync(['apply', '-auto-approve'])).toEqual({ code: 2, stdout: '', stderr: `Error: unknown option '-auto-approve': monsync's long options take two dashes, as in \`--auto-approve\`\n${HINT}` });
    expect((await monsync(['plan', '-out=plan.json'])).stderr).toContain("unknown option '-out=plan.json': monsync's long options take two dashes, as in `--out=plan.json`");
    expect((await monsync(['plan', 'monitoring/', '-out', 'p.json'])).stderr).toContain('as in `--out`');
    expect((await monsync(['plan', '-detailed-exitcode'])).code).toBe(1);
    // What monsync has not got with two dashes either stays commander's own error.
    expect((await monsync(['plan', '-lock=false'])).stderr).toBe(`Error: unknown option '-lock=false'\n${HINT}`);
  });

  it('init says monsync needs none, and what to run instead', async () => {
    const r = await monsync(['init']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: monsync has no `init`: there is no state or provider to set up\. .*`monsync export`/);
  });

  it('a problem that is not in what was typed still exits 1: a label the service does not know, here no service', async () => {
    const r = await monsync(['pause', '--monitor', 'mx-eu-1', '--for', '30m']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain(HINT);
  });
});
