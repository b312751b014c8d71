/**
 * An account read that contradicts itself never becomes a plan (issue 12, section 1). A lying proxy
 * sits between the built CLI and the emulator and answers one list endpoint with a well-formed but
 * empty list while the other lists are full, as a stale cache page or a broken gateway would. Plan,
 * apply and export must stop with exit 1 and a message naming the lists that disagree, and apply
 * must not send one write; a single stale page followed by a good one must heal by the re-read.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { emptyAlertList, emptyGroupList, startLyingProxy, type Lie, type LyingProxy } from '../helpers/lying-proxy.js';
import { configYaml, describeRequests, expectNoDuplicates, state, writes, e2eSuite, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const MONITORS = '/v1/Config/Monitor/';
const ALERTS = '/v1/Config/Alert/';
const GROUPS = '/v1/Config/Group/';

/** The answer the issue observed: a well-formed monitor list with nothing in it. */
const emptyMonitorList = (): unknown => ({ monitor_list: [] });

/** Ids sorted as the messages sort them: numbers by value, the rest as text. */
const byId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
const sortedIds = (ids: Iterable<string>) => [...new Set(ids)].sort(byId);

/**
 * Five managed SMTP monitors with an alert each, in one group: no reference to a monitor managed
 * elsewhere, so a plan from an empty monitor list is not stopped by an unknown label but plans every
 * monitor, alert and group anew (what the issue observed: "60 to add").
 */
const CONFIG = configYaml({
  monitors: Array.from({ length: 5 }, (_, i) => ({ label: `mx-${i}`, alerts: [{ subject_init: `mx-${i} is DOWN` }] })),
  groups: [{ name: 'mail', monitors: Array.from({ length: 5 }, (_, i) => `mx-${i}`) }],
});
let config: string;

/** The configuration applied straight to the emulator: monitors, alerts and groups a lie could duplicate. */
async function applyConfig(): Promise<void> {
  config = await ws.write('contradictory/monsync.yaml', CONFIG);
  const r = await runCli(['apply', config, '--auto-approve'], { url: emu.url });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  await emu.control.clearRequests();
}

/** Runs the CLI through a fresh proxy telling `lies`; the proxy's counters start at zero for each run. */
async function throughProxy(args: string[], lies: Lie[]): Promise<{ code: number; stdout: string; stderr: string; proxy: LyingProxy }> {
  const proxy = await startLyingProxy(emu.url, lies);
  try {
    const r = await runCli(args, { url: proxy.url });
    return { ...r, proxy };
  } finally {
    await proxy.close();
  }
}

/** What apply could have changed; the rest of the emulator state (alert timers, outbox) follows the clock. */
const resources = async () => {
  const s = await state(emu);
  return { monitors: s.monitors, alerts: s.alerts, groups: s.groups };
};

const gets = async (path: string) => (await emu.control.requests()).filter((q) => q.method === 'GET' && q.path === path).length;

describe('a list answered empty while the others are full', () => {
  it('an empty monitor list: plan and apply exit 1 naming the alert and monitor lists, and apply sends nothing', async () => {
    await applyConfig();
    const before = await resources();
    const named = sortedIds(before.alerts.map((a) => a.monitor));
    const expected =
      `Error: the alert list names ${named.length} monitors the monitor list does not contain (e.g. id ${named[0]}): ` +
      'the service answered an incomplete monitor list; nothing was sent';

    const lie = [{ path: MONITORS, rewrite: emptyMonitorList }];
    const plan = await throughProxy(['plan', config, '--detailed-exitcode'], lie);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toContain(expected);
    expect(plan.stdout).not.toMatch(/to add|to change|to destroy/);
    // Read twice before giving up: a cache may have served one stale page.
    expect(plan.proxy.lied.get(MONITORS)).toBe(2);

    const apply = await throughProxy(['apply', config, '--auto-approve'], lie);
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stderr).toContain(expected);
    expect(apply.stdout).not.toContain('Applying');
    expect(describeRequests(await writes(emu))).toEqual([]);
    expect(await gets(MONITORS)).toBe(4);
    expect(await resources()).toEqual(before);
  });

  it('apply --plan FILE: the saved plan\'s re-read of the account is cross-checked too', async () => {
    await applyConfig();
    const before = await resources();
    // The saved plan names the URL it was made against: make it through the proxy, still truthful.
    const lies: Lie[] = [];
    const proxy = await startLyingProxy(emu.url, lies);
    try {
      const saved = ws.path('contradictory/plan.json');
      const plan = await runCli(['plan', config, '--out', saved], { url: proxy.url });
      expect(plan.code, plan.stderr).toBe(0);
      lies.push({ path: MONITORS, rewrite: emptyMonitorList });
      const apply = await runCli(['apply', '--plan', saved, '--auto-approve'], { url: proxy.url });
      expect(apply.code, apply.stdout + apply.stderr).toBe(1);
      expect(apply.stderr).toMatch(/^Error: the alert list names 5 monitors the monitor list does not contain \(e\.g\. id \d+\): the service answered an incomplete monitor list; nothing was sent$/m);
    } finally {
      await proxy.close();
    }
    expect(describeRequests(await writes(emu))).toEqual([]);
    expect(await resources()).toEqual(before);
  });

  it('an empty alert list while monitors name their alerts: exit 1 naming the monitor and alert lists, not one write', async () => {
    await applyConfig();
    const before = await resources();
    const named = sortedIds(before.monitors.flatMap((m) => m.alerts ?? []));
    expect(named.length).toBe(before.alerts.length);

    const lie = [{ path: ALERTS, rewrite: emptyAlertList }];
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const r = await throughProxy([...args, config], lie);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `Error: the monitor list names ${named.length} alerts the alert list does not contain (e.g. id ${named[0]}): ` +
          'the service answered an incomplete alert list; nothing was sent',
      );
    }
    expect(describeRequests(await writes(emu))).toEqual([]);
    expect(await resources()).toEqual(before);
  });

  it('an empty group list while monitors name their groups: exit 1 naming the monitor and group lists, not one write', async () => {
    await applyConfig();
    const before = await resources();
    const named = sortedIds(before.groups.map((g) => g.id));

    const lie = [{ path: GROUPS, rewrite: emptyGroupList }];
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const r = await throughProxy([...args, config], lie);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `Error: the monitor list names ${named.length} group${named.length === 1 ? '' : 's'} the group list does not contain (e.g. id ${named[0]}): ` +
          'the service answered an incomplete group list; nothing was sent',
      );
    }
    expect(describeRequests(await writes(emu))).toEqual([]);
    expect(await resources()).toEqual(before);
  });

  it('export: exit 1 with the same message, ending in "no file was written", and no file', async () => {
    await applyConfig();
    const named = sortedIds((await state(emu)).alerts.map((a) => a.monitor));
    const out = ws.path('contradicted-export.yaml');
    const r = await throughProxy(['export', '--out', out], [{ path: MONITORS, rewrite: emptyMonitorList }]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `Error: the alert list names ${named.length} monitors the monitor list does not contain (e.g. id ${named[0]}): ` +
        'the service answered an incomplete monitor list; no file was written',
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('a single stale page', () => {
  it('is healed by the re-read: plan finds no changes, apply sends nothing and exits 0', async () => {
    await applyConfig();
    const before = await resources();
    for (const path of [MONITORS, ALERTS, GROUPS]) {
      const rewrite = path === MONITORS ? emptyMonitorList : path === ALERTS ? emptyAlertList : emptyGroupList;
      const lie = [{ path, rewrite, times: 1 }];
      const plan = await throughProxy(['plan', config, '--detailed-exitcode'], lie);
      expect(plan.code, `${path}: ${plan.stdout}${plan.stderr}`).toBe(0);
      expect(plan.stdout).toContain('No changes.');
      expect(plan.proxy.lied.get(path)).toBe(1);
      expect(plan.stderr).toMatch(/^Warning: the first read of the account contradicted itself \(.*\); read again: consistent\.$/m);

      const apply = await throughProxy(['apply', config, '--auto-approve'], lie);
      expect(apply.code, `${path}: ${apply.stdout}${apply.stderr}`).toBe(0);
      expect(apply.stdout).toContain('No changes.');
    }
    expect(describeRequests(await writes(emu))).toEqual([]);
    expectNoDuplicates(await state(emu));
    expect(await resources()).toEqual(before);
  });
});
