/**
 * Apply under injected faults (issue 5): latency, 503s, 429s with Retry-After, and answers lost
 * after the service acted. Whatever the faults, apply converges (the plan afterwards is empty) and
 * never makes a monitor, alert or group twice.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanOutput, runCli, startCli, transcripts } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import {
  Workspace,
  alertSubjects,
  byLabel,
  configYaml,
  expectNoDuplicates,
  groupByName,
  managed,
  memberLabels,
  settleRequests,
  state,
  type EmuState,
  type SimpleMonitor, e2eSuite } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const pad = (i: number) => `f-${String(i).padStart(2, '0')}`;
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function monitor(i: number, label = pad(i)): SimpleMonitor {
  return {
    label,
    ip_address: `${pad(i)}.example.com`,
    alerts: [
      { subject_init: `${pad(i)} down`, alert_destinations: ['ops-mail', 'oncall-sms'] },
      { subject_init: `${pad(i)} slow`, timeout: 30 },
    ],
  };
}

/** 12 monitors with 2 alerts each, a top-level alert, 3 groups: 40 creates. */
const V1 = configYaml({
  monitors: range(1, 12).map((i) => monitor(i)),
  alerts: [{ monitor: 'www-http', subject_init: 'www down' }],
  groups: [
    { name: 'odd', monitors: [...range(1, 12).filter((i) => i % 2).map(pad), 'www-http'] },
    { name: 'even', monitors: range(1, 12).filter((i) => i % 2 === 0).map(pad) },
    { name: 'first', monitors: [pad(1), pad(2)] },
  ],
});

/** Renames, field updates, deletes (with alerts), alert updates and deletes, a group rename, creates. */
const V2 = configYaml({
  monitors: [
    { ...monitor(1, 'f-01-new'), previous_labels: [pad(1)] },
    ...range(2, 4).map((i) => ({ ...monitor(i), timer: 10 })),
    { ...monitor(8), alerts: monitor(8).alerts!.slice(0, 1) },
    { ...monitor(9), alerts: [{ subject_init: 'f-09 down', alert_destinations: ['duty-voice'] }, monitor(9).alerts![1]!] },
    ...range(10, 13).map((i) => monitor(i)),
  ],
  alerts: [{ monitor: 'www-http', subject_init: 'www down' }],
  groups: [
    { name: 'odd', monitors: ['f-01-new', pad(3), pad(9), pad(11), pad(13), 'www-http'] },
    { name: 'evens', previous_names: ['even'], monitors: [2, 4, 8, 10, 12].map(pad) },
    { name: 'first', monitors: ['f-01-new', pad(2)] },
  ],
});

function expectV2(s: EmuState): void {
  expectNoDuplicates(s);
  expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(['f-01-new', ...[2, 3, 4, 8, 9, 10, 11, 12, 13].map(pad)].sort());
  for (const m of managed(s, 'e2e')) expect(m.meta).toEqual({ 'managed-by': 'e2e' });
  expect(byLabel(s, pad(3)).timer).toBe(10);
  expect(byLabel(s, pad(10)).timer).toBe(5);
  expect(alertSubjects(s, pad(8))).toEqual(['f-08 down']);
  expect(alertSubjects(s, 'f-01-new')).toEqual(['f-01 down', 'f-01 slow']);
  const voice = s.destinations.find((d) => d.label === 'duty-voice')!.id;
  expect(s.alerts.find((a) => a.subject_init === 'f-09 down')!.alert_destinations).toEqual([voice]);
  expect(alertSubjects(s, 'www-http')).toEqual(['www down']);
  expect(s.groups.map((g) => g.name).sort()).toEqual(['evens', 'first', 'odd']);
  expect(memberLabels(s, 'odd')).toEqual(['f-01-new', pad(3), pad(9), pad(11), pad(13), 'www-http']);
  expect(memberLabels(s, 'evens')).toEqual([2, 4, 8, 10, 12].map(pad));
  // Nothing of monitors deleted is left behind.
  expect(s.alerts.filter((a) => !s.monitors.some((m) => m.id === a.monitor))).toEqual([]);
  expect(s.alerts.filter((a) => /^f-0[567] /.test(a.subject_init))).toEqual([]);
}

/**
 * [name, faults, applies allowed]. One apply suffices for each fault alone. All of them at once
 * fail about 4 requests in 10, so a call fails all 1 + maxRetries of its tries about once in a
 * hundred (one retry budget, src/api/retry.ts): an apply may then end with a failed change, and
 * the next one finishes the job. Never a duplicate in between.
 */
const profiles: [string, Record<string, unknown>, number][] = [
  ['latency 40 ms', { latency_ms: 40 }, 1],
  ['10% 503', { error_rate: 0.1, error_status: 503, seed: 11 }, 1],
  ['429 with Retry-After 1 on every 7th call', { rate_limit_every: 7, retry_after: 1 }, 1],
  ['20% of answers dropped after the service acted', { drop_rate: 0.2, seed: 5 }, 1],
  ['all of them at once', { latency_ms: 10, error_rate: 0.1, rate_limit_every: 7, retry_after: 1, drop_rate: 0.2, seed: 3 }, 3],
];

/** Applies until an apply exits 0, at most `runs` times; no duplicates after any of them. */
async function applyUntilDone(dir: string, runs: number): Promise<void> {
  for (let i = 1; ; i++) {
    const r = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expectNoDuplicates(await state(emu));
    if (r.code === 0 || i >= runs) {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return;
    }
    expect(r.code, r.stdout + r.stderr).toBe(1);
  }
}

describe('apply under injected faults', () => {
  // Up to six applies and a plan each: 'all of them at once' took 60.7 s in a full run at load 15-18
  // on 2 cores (issue 34; its former 90 s bound was two thirds used); four times that.
  it.each(profiles)('%s: creates, then renames, updates and deletes, converge without duplicates', async (_name, faults, runs) => {
    const name = `faults-${Object.keys(faults).join('-')}`;
    const dir = ws.path(name);
    await ws.write(`${name}/monsync.yaml`, V1);
    const before = await state(emu);
    await emu.control.faults(faults);

    await applyUntilDone(dir, runs);
    const afterV1 = await state(emu);
    expectNoDuplicates(afterV1);
    expect(managed(afterV1, 'e2e')).toHaveLength(12);
    expect(afterV1.alerts).toHaveLength(25);
    expect(memberLabels(afterV1, 'first')).toEqual([pad(1), pad(2)]);

    const oldIds = { f01: byLabel(afterV1, pad(1)).id, even: groupByName(afterV1, 'even').id };
    await ws.write(`${name}/monsync.yaml`, V2);
    await applyUntilDone(dir, runs);

    const faulted = (await emu.control.requests()).filter((r) => r.fault !== null);
    expect(faulted.length, 'the faults were injected').toBeGreaterThan(0);
    await emu.control.clearFaults();

    const plan = await runCli(['plan', '--detailed-exitcode'], { url: emu.url, cwd: dir });
    expect(plan.code, plan.stdout).toBe(0);
    const s = await state(emu);
    expectV2(s);
    expect(byLabel(s, 'f-01-new').id).toBe(oldIds.f01);
    expect(groupByName(s, 'evens').id).toBe(oldIds.even);
    // The monitors of other types and the unmanaged one are as they were.
    const others = (x: EmuState) =>
      x.monitors.filter((m) => !m.meta?.['managed-by']).map(({ alerts: _a, groups: _g, ...m }) => m);
    expect(others(s)).toEqual(others(before));
  }, 240_000);
});

describe('a call the service refuses', () => {
  it('fails its change and skips what needs it, other changes go on, exit 1; the next apply finishes', async () => {
    await ws.write(
      'refused/monsync.yaml',
      configYaml({
        monitors: [
          { label: 'n-1', alerts: [{ subject_init: 'n-1 down' }] },
          { label: 'n-2', alerts: [{ subject_init: 'n-2 down' }] },
        ],
        alerts: [{ monitor: 'www-http', subject_init: 'www down' }],
        groups: [{ name: 'new-ones', monitors: ['n-1', 'n-2'] }, { name: 'web', monitors: ['www-http'] }],
      }),
    );
    const dir = ws.path('refused');
    await emu.control.faults({ error_rate: 1, error_status: 400, methods: ['POST'], path_prefix: '/v1/Config/Monitor/' });
    const r = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ {2}x monitor "n-1" failed: .*400/m);
    expect(r.stdout).toContain('  . alert "n-1" / "n-1 down" skipped: needs monitor "n-1"');
    expect(r.stdout).toMatch(/^ {2}\. group "new-ones" skipped: needs monitor "n-[12]"$/m);
    expect(r.stdout).toMatch(/^ {2}\+ alert "www-http" \/ "www down" created/m);
    expect(r.stdout).toMatch(/^ {2}\+ group "web" created/m);
    // What is left comes next, from apply's own plan: no advice to run plan again.
    expect(r.stdout).toMatch(/^Apply incomplete: 2 done, 2 failed, 3 skipped\.\nChecking \.\.\. \n/m);
    expect(r.stdout).not.toContain('Run plan again');
    // A refused create is not retried: the service said no.
    expect((await emu.control.requests()).filter((q) => q.method === 'POST' && q.path === '/v1/Config/Monitor/')).toHaveLength(2);

    await emu.control.clearFaults();
    const again = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toMatch(/^Apply complete: 5 added, 0 changed, 0 destroyed/m);
    const s = await state(emu);
    expectNoDuplicates(s);
    expect(memberLabels(s, 'new-ones')).toEqual(['n-1', 'n-2']);
  });
});

describe('one retry budget', () => {
  it('a change the service answers 503 every time costs 1 + maxRetries requests (the emulator counts them)', async () => {
    await ws.write('budget/monsync.yaml', configYaml({ monitors: [{ label: 'b-1' }] }));
    const dir = ws.path('budget');
    expect((await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir })).code).toBe(0);
    await ws.write('budget/monsync.yaml', configYaml({ monitors: [{ label: 'b-1', timer: 10 }] }));
    await emu.control.clearRequests();
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['PUT'] });
    const r = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ {2}x monitor "b-1" failed after 5 attempts: the service said "injected fault: HTTP 503" \(PUT \/v1\/Config\/Monitor\/\d+\/\)$/m);
    // Once the client's 4 retries: the old engine tried 4 times more on top (20 requests).
    const puts = (await emu.control.requests()).filter((q) => q.method === 'PUT');
    expect(puts.map((q) => q.status)).toEqual([503, 503, 503, 503, 503]);
  }, 30_000);
});

describe('a hung service', () => {
  it('fails a plan at the deadline of a call (MONSYNC_DEADLINE), not after five timeouts', async () => {
    await ws.write('hung/monsync.yaml', configYaml({ monitors: [{ label: 'h-1' }] }));
    await emu.control.faults({ latency_ms: 1500, methods: ['GET'] });
    const r = await runCli(['plan', '--timeout', '0.5'], { url: emu.url, cwd: ws.path('hung'), env: { MONSYNC_DEADLINE: '1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gave up at the call's deadline of 1 s \(MONSYNC_DEADLINE\)/);
    // Five attempts of 0.5 s would be five requests per path: the deadline is shown by counting the
    // requests below, not by the wall time, which a busy machine stretches (issue 34).
    // The emulator still answers the abandoned reads after its latency: let them land, then count them.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await settleRequests(emu);
    const perPath = new Map<string, number>();
    for (const q of await emu.control.requests()) perPath.set(q.path, (perPath.get(q.path) ?? 0) + 1);
    for (const [path, n] of perPath) expect(n, path).toBeLessThanOrEqual(3);
  }, 30_000);
});

describe('a service slower than the client timeout', () => {
  // A timeout leaves the request in flight at the service: a read-back that does not see it yet
  // proves nothing, so apply fails that change instead of sending it again (drops and 5xx are
  // different: the service finished before the connection closed or it answered).
  it('a monitor create answered after --timeout is never made twice', async () => {
    await ws.write('slow/monsync.yaml', configYaml({ monitors: [{ label: 'slow-1' }] }));
    await emu.control.faults({ latency_ms: 1500, methods: ['POST'], path_prefix: '/v1/Config/Monitor/' });
    const r = await startCli(['apply', '--auto-approve', '--timeout', '0.3'], { url: emu.url, cwd: ws.path('slow'), record: false }).done;
    expect(r.stdout).toContain('Applying 1 change');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/may still create it/);
    // The create the client gave up on still lands (1.5 s after it was sent), exactly once.
    const deadline = Date.now() + 10_000;
    while (managed(await state(emu), 'e2e').length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await settleRequests(emu, 400);
    expect(managed(await state(emu), 'e2e').map((m) => m.label)).toEqual(['slow-1']);
  }, 30_000);
});

describe('output hygiene', () => {
  it('no run of this file printed the password or a stack trace', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(profiles.length * 3);
    for (const t of transcripts) expectCleanOutput(t.result);
  });
});
