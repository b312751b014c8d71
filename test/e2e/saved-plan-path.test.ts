/**
 * A saved plan is derived again exactly as `plan --out` made it (issue 35): the one plan assembly
 * (src/workflow/assemble.ts) gives the same maintenance windows, checks and ignore rules to both, and
 * the proof compares what the plan covers: objects the configuration ignores may come and go
 * between plan and apply, as they are outside the fingerprint too (docs/semantics.md).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { configYaml, describeRequests, e2eSuite, managed, smtpSeed, state, writes, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[]) => runCli(args, { url: emu.url, cwd: ws.dir });

const MONITORS = [{ label: 'mx-a', alerts: [{ subject_init: 'mx-a is DOWN' }] }, { label: 'mx-b' }];

/** Plans `name.yaml` into `name.json`: a plan with changes. */
async function planned(name: string, yaml: string): Promise<string> {
  await ws.write(`${name}.yaml`, yaml);
  const r = await cli(['plan', `${name}.yaml`, '--out', `${name}.json`, '--detailed-exitcode']);
  expect(r.code, r.stderr).toBe(2);
  return `${name}.json`;
}

describe('apply --plan derives the saved plan again as plan made it', () => {
  it('a configuration with maintenance windows: the plan saved by plan --out is applied, not refused as edited', async () => {
    const yaml = `${configYaml({ monitors: MONITORS })}maintenance:
  - name: nightly
    monitors: [mx-*]
    weekly: { days: [mon, tue, wed, thu, fri, sat, sun], at: "03:00" }
    duration: 30m
    time_zone: Europe/London
`;
    const file = await planned('maint', yaml);
    const r = await cli(['apply', '--plan', file, '--auto-approve']);
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e').map((m) => m.label).sort()).toEqual(['mx-a', 'mx-b']);
  });

  it('a monitor matching settings.ignore created between plan and apply is outside the plan: applied, not refused', async () => {
    const file = await planned('ignored-monitor', configYaml({ ignore: ['legacy-*'], monitors: MONITORS }));
    await emu.control.seed({ monitors: [smtpSeed('legacy-new')] });
    const r = await cli(['apply', '--plan', file, '--auto-approve']);
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
    const s = await state(emu);
    expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(['mx-a', 'mx-b']);
    expect(s.monitors.some((m) => m.label === 'legacy-new')).toBe(true);
  });

  it('a group matching settings.ignore created between plan and apply is outside the plan: applied, not refused', async () => {
    const file = await planned('ignored-group', configYaml({ ignore: ['legacy-*'], monitors: MONITORS }));
    const seeded = await emu.control.seed({ monitors: [smtpSeed('legacy-member')] });
    await emu.control.seed({ groups: [{ name: 'legacy-group', monitors: seeded.monitors }] });
    const r = await cli(['apply', '--plan', file, '--auto-approve']);
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
  });

  it('an edited change is still refused: the proof compares everything the plan covers', async () => {
    const file = await planned('edited', configYaml({ monitors: MONITORS }));
    const { readFile, writeFile } = await import('node:fs/promises');
    const p = ws.path(file);
    const data = JSON.parse(await readFile(p, 'utf8')) as { changes: { call: { body?: Record<string, unknown> } }[] };
    data.changes[0]!.call.body = { ...data.changes[0]!.call.body, timer: 60 };
    await writeFile(p, JSON.stringify(data));
    await emu.control.clearRequests();
    const r = await cli(['apply', '--plan', file, '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('edited or damaged');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });
});
