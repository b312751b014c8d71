/**
 * `monsync apply --verify` end to end: the built CLI polls the emulator's data (MONSYNC_VERIFY_POLL_MS
 * short) while the test moves the emulator's clock; no real minutes pass.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanOutput, startCli } from '../helpers/cli.js';
import { apiCall, type TestEmulator } from '../helpers/emulator.js';
import { e2eSuite, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;
e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const CONFIG = `version: 1
defaults:
  monitor: { time_zone: UTC, timer: 5, ttl: 300 }
  alert: { timeout: 15, alert_destinations: [ops-mail] }
monitors:
  - label: mx-good
    ip_address: mx
    test_account: probe@example.org
    alerts: [{ subject_init: "mx-good DOWN", subject_term: "mx-good UP" }]
  - label: mx-no-forwarder
    ip_address: mx
    test_account: probe@example.net
    alerts: [{ subject_init: "mx-no-forwarder DOWN", subject_term: "mx-no-forwarder UP" }]
`;

/** Runs apply --verify; once it waits, makes one monitor's round trip fail and moves the clock until the CLI ends. */
async function applyVerify(file: string, breakLabel: string | null) {
  await emu.control.simulation({ failure_rate: 0 });
  const run = startCli(['apply', file, '--auto-approve', '--verify'], { url: emu.url, env: { MONSYNC_VERIFY_POLL_MS: '20' }, timeoutMs: 90_000 });
  let finished = false;
  const done = run.done.finally(() => (finished = true));
  while (!finished && !run.output().stdout.includes('Verifying the first round trip')) await new Promise((r) => setTimeout(r, 20));
  if (breakLabel) {
    const monitors = (await apiCall(emu, 'GET', '/v1/Config/Monitor/')).json.monitor_list as { id: string; label: string }[];
    const id = monitors.find((m) => m.label === breakLabel)!.id;
    expect((await apiCall(emu, 'POST', '/_emulator/round-trip', { body: { monitor: id, fault: 'no-forwarder' } })).status).toBe(200);
  }
  while (!finished) {
    await emu.control.advance(30);
    await new Promise((r) => setTimeout(r, 30));
  }
  const r = await done;
  expectCleanOutput(r);
  return r;
}

describe('apply --verify', () => {
  it('waits for each new monitor\'s first round trip and reports it; exit 0 when all complete', async () => {
    const file = await ws.write('verify-ok/monsync.yaml', CONFIG);
    const r = await applyVerify(file, null);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Verifying the first round trip of 2 monitors');
    expect(r.stdout).toMatch(/^ {2}✓ mx-good: round trip completed in \d+ s$/m);
    expect(r.stdout).toMatch(/^ {2}✓ mx-no-forwarder: round trip completed in \d+ s$/m);
    expect(r.stdout).toContain('Verified: 2 round trips completed.');
  });

  it('exits 1 when a monitor\'s message never comes back, and asks about the forwarder', async () => {
    const file = await ws.write('verify-bad/monsync.yaml', CONFIG);
    const r = await applyVerify(file, 'mx-no-forwarder');
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^ {2}✓ mx-good: round trip completed in \d+ s$/m);
    expect(r.stdout).toContain("  ✗ mx-no-forwarder: no reply (the service recorded: no response: the test message did not come back): is the test account's forwarder set up?");
    expect(r.stdout).toContain('Verify failed: 1 of 2 monitors did not complete a round trip.');
  });
});
