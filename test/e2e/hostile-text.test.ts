/**
 * What reaches a person is what is there (issue 23, item 5): labels, subjects and names holding
 * characters that act on a terminal or on text direction (U+202E and the other bidi overrides, C1
 * controls such as U+009B, U+2028 / U+2029, ESC) go through every command of the built CLI, and
 * none of them reaches stdout or stderr raw: they are shown as `\uXXXX` escapes, in the plan
 * renderers as in apply's per-change lines, plan errors, the --max-deletes refusal, summaries,
 * warnings and error messages. The tests run without a terminal and with NO_COLOR, so monsync
 * itself writes no ESC at all: any ESC in the output came from the hostile text.
 */
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, configYaml, e2eSuite, smtpSeed } from './support.js';

let emu: TestEmulator;
let ws: Workspace;
e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

/** Right-to-left override, CSI as a C1 control, line separator, ESC with "erase line", paragraph separator, isolate. */
const H = '\u202e\u009b31m\u2028\u001b[2K\u2029\u2066';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;

function expectSafe(r: CliResult, what: string): void {
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    const at = text.search(RAW);
    expect(at, `${what}: a raw unsafe character on ${stream} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 20))}`).toBe(-1);
  }
}

const cli = (args: string[], cwd: string) => runCli(args, { url: emu.url, cwd });

describe('hostile labels through every command', () => {
  it('validate, plan, plan --out, show, apply, status, pause, export and the --max-deletes refusal print them escaped', async () => {
    const label = (n: number) => `mx-${n}-${H}`;
    const subject = `down ${H}`;
    const monitors = [1, 2, 3].map((n) => ({ label: label(n), ip_address: `mx-${n}.example.com`, alerts: [{ subject_init: subject }] }));
    await ws.write('hostile/monsync.yaml', configYaml({ monitors }));
    const dir = ws.path('hostile');
    // Another owner's monitor: export warns about it (by label), status lists it.
    await emu.control.seed({ monitors: [smtpSeed(`foreign-${H}`, { 'managed-by': 'other-team' })] });

    const runs: [string, CliResult][] = [];
    const run = async (what: string, args: string[], cwd = dir, code?: number) => {
      const r = await cli(args, cwd);
      runs.push([what, r]);
      if (code !== undefined) expect(r.code, `${what}: ${r.stdout}${r.stderr}`).toBe(code);
      return r;
    };

    // validate: its warnings (a timeout not longer than the timer) and its errors (a label given twice).
    await ws.write('hostile-bad/monsync.yaml', configYaml({ monitors: [monitors[0]!, monitors[0]!] }));
    await run('validate', ['validate'], dir);
    const bad = await run('validate errors', ['validate'], ws.path('hostile-bad'), 1);
    expect(bad.stderr).toContain('\\u202e');

    await run('plan', ['plan', '--target', `nothing-${H}`], dir, 0);
    await run('plan --out', ['plan', '--out', ws.path('hostile.json')], dir, 0);
    await run('show', ['show', ws.path('hostile.json')], dir, 0);
    await run('show --format markdown', ['show', ws.path('hostile.json'), '--format', 'markdown'], dir, 0);
    const applied = await run('apply', ['apply', '--auto-approve'], dir, 0);
    expect(applied.stdout).toContain('\\u202e');

    // A plan error naming a destination the account does not have.
    await ws.write('hostile-dest/monsync.yaml', configYaml({ monitors: [{ ...monitors[0]!, alerts: [{ subject_init: subject, alert_destinations: [`pager-${H}`] }] }] }));
    await run('plan error', ['plan'], ws.path('hostile-dest'), 1);

    await run('status', ['status', '--all'], dir, 0);
    await run('pause', ['pause', '--monitor', label(1), '--for', '10m'], dir);
    await run('paused', ['paused'], dir);
    await run('resume', ['resume', '--monitor', label(1)], dir);
    await run('pause of an unknown label', ['pause', '--monitor', `nope-${H}`, '--for', '10m'], dir);
    await run('export', ['export'], dir, 0);

    // Every managed monitor deleted: more than --max-deletes 1 allows.
    await ws.write('hostile-empty/monsync.yaml', configYaml({ monitors: [] }));
    const refused = await run('--max-deletes refusal', ['apply', '--auto-approve', '--max-deletes', '1'], ws.path('hostile-empty'), 1);
    expect(refused.stderr).toContain('\\u202e');

    for (const [what, r] of runs) expectSafe(r, what);
  }, 120_000);
});
