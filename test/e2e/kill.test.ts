/**
 * An apply killed in the middle (SIGKILL: no handler runs) leaves a partly changed account; the
 * next apply finishes the job without making anything twice. A monitor can never exist without
 * its ownership marker, since the marker is part of the create body. Ctrl-C (SIGINT) and a CI
 * system's cancel (SIGTERM) stop it cleanly: no new calls, running ones finish, a summary.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanOutput, runCli, startCli, transcripts } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { startLyingProxy } from '../helpers/lying-proxy.js';
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

/**
 * Starts apply and sends it `signal` once `lines` "created" lines are on its stdout. `atSignal`:
 * how many requests the emulator had answered right after the signal was sent.
 */
async function applyKilledAfter(dir: string, lines: number, signal: NodeJS.Signals = 'SIGKILL', extra: string[] = []) {
  const run = startCli(['apply', '--auto-approve', ...extra], { url: emu.url, cwd: dir });
  let atSignal = -1;
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
  atSignal = (await emu.control.requests()).length;
  const r = await run.done;
  expect(r.stdout).not.toContain('Apply complete');
  return { ...r, atSignal };
}

/** `Apply interrupted: 3 done, 0 failed, 0 skipped, 76 not started.` as numbers. */
function interruptedSummary(stdout: string): { done: number; failed: number; skipped: number; notStarted: number } {
  const m = /^Apply interrupted: (\d+) done, (\d+) failed, (\d+) skipped, ([\d,]+) not started\. Run plan again to see what is left\.$/m.exec(stdout);
  expect(m, stdout).not.toBeNull();
  const [done, failed, skipped, notStarted] = m!.slice(1).map((x) => Number(x.replace(/,/g, '')));
  return { done: done!, failed: failed!, skipped: skipped!, notStarted: notStarted! };
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
    expect(r.stderr).toContain('Interrupted: starting no new calls, waiting for running ones (Ctrl-C again to quit now).');
    // 81 changes: what was not started is counted in one line, not listed.
    const summary = interruptedSummary(r.stdout);
    expect(summary.done + summary.failed + summary.skipped + summary.notStarted).toBe(2 * N + 1);
    expect(summary.notStarted).toBeGreaterThan(5);
    expect(r.stdout).not.toMatch(/skipped: interrupted|not started$/m);
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

describe('apply cancelled the way CI systems cancel a job (SIGTERM)', () => {
  it('starts no new calls, lets running ones finish, prints the summary, exits 143; the next apply converges', async () => {
    await ws.write('sigterm/monsync.yaml', CONFIG);
    const dir = ws.path('sigterm');
    await emu.control.faults({ latency_ms: 150 });
    const r = await applyKilledAfter(dir, 3, 'SIGTERM', ['--parallelism', '2']);
    expect(r.code, r.stdout + r.stderr).toBe(143);
    expect(r.stderr).toContain('Interrupted: starting no new calls, waiting for running ones (SIGTERM again to quit now).');
    const summary = interruptedSummary(r.stdout);
    expect(summary.done + summary.failed + summary.skipped + summary.notStarted).toBe(2 * N + 1);
    expect(summary.failed).toBe(0);
    expect((r.stdout.match(/ created \(id /g) ?? []).length).toBe(summary.done);
    expectCleanOutput(r);
    // Only the calls in flight when the signal came (at most --parallelism) landed after it...
    await settleRequests(emu);
    const log = await emu.control.requests();
    expect(log.length - r.atSignal).toBeLessThanOrEqual(2);
    // ... and every write the service received is one the summary counts as done.
    expect(log.filter((q) => q.method === 'POST')).toHaveLength(summary.done);

    await emu.control.clearFaults();
    const again = await runCli(['apply', '--auto-approve'], { url: emu.url, cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(labels);
  }, 60_000);

  it('names what was not started when there are few', async () => {
    const few = configYaml({ monitors: [{ label: 'few-1' }, { label: 'few-2' }, { label: 'few-3' }, { label: 'few-4' }] });
    await ws.write('sigterm-few/monsync.yaml', few);
    await emu.control.faults({ latency_ms: 300 });
    const r = await applyKilledAfter(ws.path('sigterm-few'), 1, 'SIGTERM', ['--parallelism', '1']);
    expect(r.code, r.stdout + r.stderr).toBe(143);
    const summary = interruptedSummary(r.stdout);
    expect(summary.notStarted).toBeGreaterThanOrEqual(1);
    expect(r.stdout.match(/^ {2}\. monitor "few-\d" not started$/gm) ?? []).toHaveLength(summary.notStarted);
  }, 60_000);
});

// Issue 36, item 9: SIGTERM while the final check waited on a 429 took 51 s to exit.
describe('apply cancelled while its final check waits on a 429', () => {
  it("ends at once, not after the Retry-After: the changes are made, the check says it could not run, exit 143", async () => {
    await ws.write('sigterm-check/monsync.yaml', configYaml({ monitors: [{ label: 'chk-1' }, { label: 'chk-2' }] }));
    // The plan's monitor list read passes; the check's (the second) is answered 429 Retry-After: 30.
    const proxy = await startLyingProxy(emu.url, [
      { path: '/v1/Config/Monitor/', every: 2, times: 1, answer: { status: 429, headers: { 'retry-after': '30' }, body: { error: 'slow down' } } },
    ]);
    try {
      // Well under the 30 s the check would otherwise wait: only ending at once passes.
      const run = startCli(['apply', '--auto-approve'], { url: proxy.url, cwd: ws.path('sigterm-check'), timeoutMs: 20_000 });
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (proxy.lied.size === 0 || !run.output().stdout.includes('Checking ... ')) return;
          clearInterval(poll);
          run.child.kill('SIGTERM');
          resolve();
        };
        const poll = setInterval(check, 20);
        run.child.on('close', () => (clearInterval(poll), reject(new Error(`apply ended before its check was held:\n${run.output().stdout}`))));
      });
      const r = await run.done;
      expect(r.code, r.stdout + r.stderr).toBe(143);
      expect(r.stdout).toContain('Checking ... not possible.');
      expect(r.stderr).toContain('interrupted');
      expectCleanOutput(r);
      expect(managed(await state(emu), 'e2e').map((m) => m.label).sort()).toEqual(['chk-1', 'chk-2']);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('output hygiene', () => {
  it('no run of this file printed the password or a stack trace', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(6);
    for (const t of transcripts) expectCleanOutput(t.result);
  });
});
