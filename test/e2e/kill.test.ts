/**
 * An apply killed in the middle (SIGKILL: no handler runs) leaves a partly changed account; the
 * next apply finishes the job without making anything twice. A monitor can never exist without
 * its ownership marker, since the marker is part of the create body.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanOutput, runCli, startCli, transcripts } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, configYaml, expectNoDuplicates, isSmtp, managed, memberLabels, settleRequests, state, e2eSuite } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const N = 40;
const labels = Array.from({ length: N }, (_, i) => `k-${String(i + 1).padStart(2, '0')}`);
const CONFIG = configYaml({
  monitors: labels.map((label) => ({ label, alerts: [{ subject_init: `${label} down` }] })),
  groups: [{ name: 'all-k', monitors: labels }],
});

/** Starts apply and sends it `signal` once `lines` "created" lines are on its stdout. */
async function applyKilledAfter(dir: string, lines: number, signal: NodeJS.Signals = 'SIGKILL') {
  const run = startCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
  const created = () => (run.output().stdout.match(/ created \(id /g) ?? []).length;
  await new Promise<void>((resolve, reject) => {
    let sent = false;
    const check = () => {
      // Once: a second Ctrl-C means "quit now".
      if (!sent && created() >= lines) {
        sent = true;
        run.child.kill(signal);
        resolve();
      }
    };
    run.child.stdout!.on('data', check);
    run.child.on('close', () => reject(new Error(`apply finished before ${lines} creates:\n${run.output().stdout}`)));
  });
  const r = await run.done;
  expect(r.stdout).not.toContain('Apply complete');
  return r;
}

describe('apply killed in the middle', () => {
  it.each([3, 45])('killed after %i creates: the next apply converges with no duplicates and every monitor marked', async (after) => {
    await ws.write(`kill-${after}/monsync.yaml`, CONFIG);
    const dir = ws.path(`kill-${after}`);
    await emu.control.faults({ latency_ms: 50 });

    expect((await applyKilledAfter(dir, after)).code).toBe(128);
    // Requests the killed process had in flight still land (after the latency); let them.
    await settleRequests(emu);
    const partial = await state(emu);
    expectNoDuplicates(partial);
    const smtp = partial.monitors.filter(isSmtp).filter((m) => m.label !== 'legacy-mx');
    // Killed part way: some of it was made, not all of it.
    expect(smtp.length + partial.alerts.length + partial.groups.length).toBeGreaterThanOrEqual(after);
    expect(smtp.length + partial.alerts.length + partial.groups.length).toBeLessThan(2 * N + 1);
    for (const m of smtp) expect(m.meta, `monitor ${m.label}`).toEqual({ 'managed-by': 'e2e' });

    const again = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('Checking ... No changes.');
    await emu.control.clearFaults();
    expect((await runCli(['plan', '--detailed-exitcode'], { url: emu.url, cwd: dir })).code).toBe(0);

    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(labels);
    expect(s.monitors.filter(isSmtp).filter((m) => m.meta?.['managed-by'] !== 'e2e').map((m) => m.label)).toEqual(['legacy-mx']);
    const ids = new Map(managed(s, 'e2e').map((m) => [m.id, m.label]));
    expect(s.alerts.map((a) => `${ids.get(a.monitor)} / ${a.subject_init}`).sort()).toEqual(labels.map((l) => `${l} / ${l} down`));
    expect(memberLabels(s, 'all-k')).toEqual(labels);
  }, 60_000);
});

describe('apply interrupted with Ctrl-C (SIGINT)', () => {
  it('starts no new calls, lets running ones finish, exits 130; the next apply converges', async () => {
    await ws.write('sigint/monsync.yaml', CONFIG);
    const dir = ws.path('sigint');
    await emu.control.faults({ latency_ms: 50 });
    const r = await applyKilledAfter(dir, 3, 'SIGINT');
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toContain('Interrupted: starting no new calls');
    expect(r.stdout).toMatch(/skipped: interrupted/);
    expectCleanOutput(r);
    // Every call it started was waited for: nothing lands after it exited.
    const landed = (await emu.control.requests()).length;
    await settleRequests(emu);
    expect((await emu.control.requests()).length).toBe(landed);
    const partial = await state(emu);
    expectNoDuplicates(partial);
    expect(managed(partial, 'e2e').length).toBeLessThan(N);

    const again = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(labels);
    expect(s.alerts).toHaveLength(N);
  }, 60_000);
});

describe('output hygiene', () => {
  it('no run of this file printed the password or a stack trace', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(6);
    for (const t of transcripts) expectCleanOutput(t.result);
  });
});
