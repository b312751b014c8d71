/**
 * `monsync show PLAN_FILE`: the built CLI saves a plan against an emulator with `plan --out`, then
 * `show` prints it, in each format, exactly as `plan` did, without the service.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, expectCleanOutput, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  await buildCli();
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(path.join(tmpdir(), 'monsync-show-'));
}, 300_000);

afterAll(async () => {
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await emu.control.reset('default');
});

/** No credentials, and a service address nothing listens on: show must need neither. */
const OFFLINE = { MONSYNC_URL: 'http://127.0.0.1:9', MONSYNC_USERNAME: undefined, MONSYNC_PASSWORD: undefined };

async function show(args: string[], env: Record<string, string | undefined> = OFFLINE): Promise<CliResult> {
  return runCli(['show', ...args], { url: emu.url, env });
}

async function savedPlan(name: string, extra: string[] = []): Promise<{ file: string; plan: CliResult }> {
  const file = path.join(dir, name);
  const plan = await runCli(['plan', 'examples/realistic', '--out', file, ...extra], { url: emu.url });
  expect(plan.code, plan.stderr).toBe(0);
  return { file, plan };
}

describe('monsync show', () => {
  it('prints exactly the text plan printed, without reading the account or needing credentials', async () => {
    const { file, plan } = await savedPlan('text.json');
    expect(plan.stdout).toContain('Plan: ');
    await emu.control.clearRequests();
    const r = await show([file]);
    expect(r).toEqual({ code: 0, stdout: plan.stdout, stderr: '' });
    expect(await emu.control.requests()).toEqual([]);
  });

  it('prints the same colours as plan when colour is forced', async () => {
    const { file, plan } = await savedPlan('colour.json', []);
    const coloured = await runCli(['plan', 'examples/realistic'], { url: emu.url, env: { FORCE_COLOR: '1', NO_COLOR: undefined } });
    expect(coloured.stdout).toContain('\x1b[');
    const r = await show([file], { ...OFFLINE, FORCE_COLOR: '1', NO_COLOR: undefined });
    expect(r.stdout).toBe(coloured.stdout);
    expect(plan.stdout).not.toContain('\x1b[');
  });

  it('prints the JSON plan exactly as plan --format json did (--json too)', async () => {
    const { file, plan } = await savedPlan('json.json', ['--format', 'json']);
    expect(JSON.parse(plan.stdout)).toHaveProperty('changes');
    expect((await show([file, '--format', 'json'])).stdout).toBe(plan.stdout);
    expect((await show(['--json', file])).stdout).toBe(plan.stdout);
  });

  it('prints the Markdown comment plan --format markdown printed; the heading names the files instead of the command-line paths', async () => {
    const { file, plan } = await savedPlan('md.json', ['--format', 'markdown']);
    const r = await show([file, '--format', 'markdown']);
    const [marker, heading, ...body] = r.stdout.split('\n');
    const [planMarker, planHeading, ...planBody] = plan.stdout.split('\n');
    expect(marker).toBe('<!-- monsync-plan -->');
    expect(marker).toBe(planMarker);
    expect(body).toEqual(planBody);
    expect(planHeading).toContain('examples/realistic');
    expect(heading).toContain('examples/realistic/americas.yaml');
    expect(heading).toContain(`127.0.0.1&#58;${emu.port}`);
  });

  it('refuses a file that is not a saved plan, saying why, with exit 1 and no stack trace', async () => {
    const cases: [string, string, RegExp][] = [
      ['config.yaml', 'version: 1\n', /^Error: .*config\.yaml is not a saved plan: it is not valid JSON/],
      ['other.json', '{"name": "x"}\n', /^Error: .*other\.json is not a saved plan \(no format_version\); save one with `monsync plan --out FILE`$/],
      ['old.json', '{"format_version": 0}\n', /^Error: .*old\.json is a plan of format version 0; this monsync applies version \d+/],
    ];
    for (const [name, text, message] of cases) {
      await writeFile(path.join(dir, name), text);
      const r = await show([path.join(dir, name)]);
      expect(r.code, name).toBe(1);
      expect(r.stdout, name).toBe('');
      expect(r.stderr.trimEnd(), name).toMatch(message);
    }
    // A saved plan damaged by hand.
    const { file } = await savedPlan('damaged.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.changes[0].action = 'replace';
    await writeFile(file, JSON.stringify(data));
    const r = await show([file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not a valid saved plan: changes\[0\]\.action must be create, update or delete/);
  });

  it('refuses a missing file and an unknown format', async () => {
    const missing = await show([path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: cannot read the plan file .*nope\.json: no such file or directory\n$/);
    const { file } = await savedPlan('fmt.json');
    const bad = await show([file, '--format', 'html']);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: 'Error: --format must be text, json or markdown, got "html"\n(run with --help for usage)\n' });
  });

  it('explains itself with an example in --help and needs its file argument', async () => {
    const help = await show(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: monsync show [options] <plan-file>');
    expect(help.stdout).toMatch(/Examples:\n\s+\$ monsync plan .* --out plan\.json/);
    const none = await startCli(['show'], { url: emu.url, env: OFFLINE }).done;
    expectCleanOutput(none);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'plan-file'");
  });
});
