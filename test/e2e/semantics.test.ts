/**
 * The rules of docs/semantics.md end to end, with the built CLI against the emulator: duplicates two
 * racing applies leave heal on the next apply (issue 12 §2), a near miss is pointed out (§7), and a
 * monitor carrying an alert the API cannot create again is not deleted without --force (issue 19).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import {
  Workspace,
  alertSeed,
  byLabel,
  configYaml,
  describeRequests,
  e2eSuite,
  expectNoDuplicates,
  groupByName,
  managed,
  memberLabels,
  smtpSeed,
  state,
  writes,
  type EmuState,
} from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[]) => runCli(args, { url: emu.url });

const RACED = configYaml({
  monitors: [
    { label: 'mx-1', alerts: [{ subject_init: 'mx-1 down' }] },
    { label: 'mx-2', alerts: [{ subject_init: 'mx-2 down' }, { subject_init: 'mx-2 slow' }] },
  ],
  alerts: [{ monitor: 'www-http', subject_init: 'www down' }],
  groups: [{ name: 'mail', monitors: ['mx-1', 'mx-2', 'www-http'] }],
});

/**
 * What a second apply of the same configuration, racing the first one (planned before the first
 * one's creates were visible), creates: another copy of every monitor, alert and group the first
 * one made, with the same fields and the same owner marker, under new ids.
 */
async function seedSecondRun(before: EmuState, after: EmuState): Promise<void> {
  const old = new Set([...before.monitors, ...before.alerts, ...before.groups].map((x) => x.id));
  const made = after.monitors.filter((m) => !old.has(m.id));
  const copies = await emu.control.seed({
    monitors: made.map((m) => {
      const { id: _id, alerts: _a, groups: _g, ...fields } = m;
      return { ...fields, alerts: [], groups: [] };
    }),
  });
  const copyOf = new Map(made.map((m, i) => [m.id, copies.monitors[i]!]));
  const to = (id: string): string => copyOf.get(id) ?? id;
  await emu.control.seed({
    alerts: after.alerts
      .filter((a) => !old.has(a.id))
      .map((a) => {
        const { id: _id, ...fields } = a;
        return { ...fields, monitor: to(a.monitor) };
      }),
    groups: after.groups.filter((g) => !old.has(g.id)).map((g) => ({ name: g.name, monitors: g.monitors.map(to) })),
  });
}

describe('duplicates two racing applies leave heal on the next apply (issue 12 §2)', () => {
  async function race(): Promise<{ dir: string; first: EmuState }> {
    const dir = ws.path('raced');
    await ws.write('raced/monsync.yaml', RACED);
    const before = await state(emu);
    const applied = await cli(['apply', dir, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const first = await state(emu);
    await seedSecondRun(before, first);
    const raced = await state(emu);
    expect(managed(raced, 'e2e')).toHaveLength(4);
    expect(raced.groups.filter((g) => g.name === 'mail')).toHaveLength(2);
    return { dir, first };
  }

  it('apply deletes the extra copies, keeping the first ones; plan --detailed-exitcode then exits 0 and the account holds one of each', async () => {
    const { dir, first } = await race();

    const plan = await cli(['plan', dir, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(new RegExp(`- monitor "mx-1"   \\(id \\d+, duplicate of id ${byLabel(first, 'mx-1').id}\\)`));
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 4 to destroy.');

    const healed = await cli(['apply', dir, '--auto-approve']);
    expect(healed.code, healed.stderr).toBe(0);
    expect(healed.stdout).toContain('No changes. The account matches the configuration.');
    const again = await cli(['plan', dir, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);

    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'e2e').map((m) => m.id).sort()).toEqual(managed(first, 'e2e').map((m) => m.id).sort());
    expect(groupByName(s, 'mail').id).toBe(groupByName(first, 'mail').id);
    expect(memberLabels(s, 'mail')).toEqual(['mx-1', 'mx-2', 'www-http']);
    expect(s.alerts.filter((a) => a.subject_init === 'www down')).toHaveLength(1);
  });

  it('the deletes of duplicates count against --max-deletes like any delete, and nothing is sent', async () => {
    const { dir } = await race();
    await emu.control.clearRequests();
    const refused = await cli(['apply', dir, '--auto-approve', '--max-deletes', '3']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing to apply a plan that deletes 7 resources \(more than --max-deletes 3\)/);
    expect(describeRequests(await writes(emu))).toEqual([]);
  });

  it('copies that do not all carry this owner marker still stop the plan, and nothing is sent', async () => {
    const dir = ws.path('hand-copy');
    await ws.write('hand-copy/monsync.yaml', configYaml({ monitors: [{ label: 'mx-1' }] }));
    expect((await cli(['apply', dir, '--auto-approve'])).code).toBe(0);
    await emu.control.seed({ monitors: [smtpSeed('mx-1')] });
    await emu.control.clearRequests();
    const stopped = await cli(['apply', dir, '--auto-approve']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/monitor "mx-1": the account has 2 monitors with this label \(ids \d+, \d+\); rename or delete all but one in the service/);
    expect(stopped.stderr).not.toMatch(/would delete/);
    expect(describeRequests(await writes(emu))).toEqual([]);
  });
});

describe('near misses and alerts the API cannot create again', () => {
  it('a declared label differing from an unmanaged one only in case is a create that asks whether to adopt it', async () => {
    const dir = ws.path('near');
    await ws.write('near/monsync.yaml', configYaml({ monitors: [{ label: 'Legacy-MX' }] }));
    const legacy = byLabel(await state(emu), 'legacy-mx').id;
    const plan = await cli(['plan', dir]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(new RegExp(`  \\+ monitor "Legacy-MX" {3}# \\S+:\\d+\\n {6}did you mean to adopt "legacy-mx" \\(id ${legacy}, differs only in case\\)\\?\\n`));
    const json = JSON.parse((await cli(['plan', dir, '--json'])).stdout) as { changes: { note?: unknown }[] };
    expect(json.changes[0]!.note).toEqual({ near_miss: { label: 'legacy-mx', id: legacy, differs: 'case' } });
  });

  it('a monitor no longer declared that carries an alert of another type is not deleted without --force', async () => {
    const dir = ws.path('threshold');
    await ws.write('threshold/monsync.yaml', configYaml({ monitors: [{ label: 't00', alerts: [{ subject_init: 't00 down' }] }] }));
    expect((await cli(['apply', dir, '--auto-approve'])).code).toBe(0);
    const t00 = byLabel(await state(emu), 't00').id;
    await emu.control.seed({ alerts: [{ ...alertSeed(t00, 't00 slow'), type: 'threshold' }] });
    await ws.write('threshold/monsync.yaml', configYaml({ monitors: [] }));
    await emu.control.clearRequests();

    const refused = await cli(['apply', dir, '--auto-approve']);
    expect(refused.stdout).toContain(`  - monitor "t00"   (id ${t00})\n      and its test history\n      and its 2 alerts "t00 down" and "t00 slow", one of them a threshold alert "t00 slow" the API cannot create again\n`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/take 1 alert of another type with them, which the API cannot create again/);
    expect(describeRequests(await writes(emu))).toEqual([]);

    const forced = await cli(['apply', dir, '--auto-approve', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await state(emu)).monitors.some((m) => m.id === t00)).toBe(false);
  });
});
