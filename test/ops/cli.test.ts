/**
 * The operator commands through main(), as `monsync ...` runs them: option parsing, the command
 * table, messages and exit codes. In-process, so the emulator of this test keeps answering.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { seedAccount, v1Env, v2Env, type OpsAccount } from './helpers.js';

let emu: TestEmulator;
let acct: OpsAccount;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  acct = await seedAccount(emu);
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // main() leaves a command's exit code here, as the bin shim expects; a test must not exit with it.
  process.exitCode = undefined;
});

async function monsync(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  for (const k of ['MONSYNC_URL', 'MONSYNC_USERNAME', 'MONSYNC_PASSWORD', 'MONSYNC_CLIENT_ID', 'MONSYNC_CLIENT_SECRET', 'FORCE_COLOR']) {
    vi.stubEnv(k, undefined);
  }
  vi.stubEnv('NO_COLOR', '1');
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  process.exitCode = undefined;
  const code = await main(['node', 'monsync', ...args]);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('operator commands through main()', () => {
  it('the command table has them all', async () => {
    const r = await monsync(['--help'], {});
    for (const name of ['status', 'pause', 'resume', 'paused', 'data', 'drill']) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('status: exit 0 without an active alert, 3 with one, 1 on error', async () => {
    await emu.control.setAlertActive(acct.monitors.eu, false);
    const ok = await monsync(['status'], v1Env(emu.url));
    expect([ok.code, ok.stdout]).toEqual([0, 'No monitor has an active alert (3 monitors).\n']);

    await emu.control.setAlertActive(acct.monitors.eu, true);
    const alert = await monsync(['status', '--json'], v2Env(emu.url));
    expect(alert.code).toBe(3);
    expect(JSON.parse(alert.stdout).monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1']);
    expect(alert.stderr).toMatch(/using API v2/);

    const bad = await monsync(['status'], { ...v2Env(emu.url), MONSYNC_CLIENT_SECRET: 'wrong-secret' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: /m);
    expect(bad.stderr).not.toContain('wrong-secret');
    await emu.control.setAlertActive(acct.monitors.eu, false);
  });

  it('pause: --for is required and a bad duration is refused with the reason: usage errors, exit 2', async () => {
    const missing = await monsync(['pause', '--monitor', 'mx-eu-1'], v1Env(emu.url));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--for <duration>/);

    const zero = await monsync(['pause', '--monitor', 'mx-eu-1', '--for', '0'], v1Env(emu.url));
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/^Error: --for: "0" is zero; give a positive duration/);
  });

  it('pause, paused and resume with repeated --monitor', async () => {
    const p = await monsync(['pause', '--monitor', 'mx-eu-1', '--monitor', 'mx-us-1', '--for', '1h30m'], v1Env(emu.url));
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/^Paused 2 alerts of mx-eu-1 for 1h 30m \(until .+ UTC\)\.\nPaused 1 alert of mx-us-1 for 1h 30m/);
    const l = await monsync(['paused', '--json'], v1Env(emu.url));
    expect(JSON.parse(l.stdout).paused).toHaveLength(3);
    const r = await monsync(['resume', '--all'], v1Env(emu.url));
    expect([r.code, r.stdout]).toEqual([0, 'Resumed alerting for every alert of the account (3 alerts).\n']);
  });

  it('unknown labels: exit 1 with "did you mean"', async () => {
    const r = await monsync(['data', 'mx-us1'], v1Env(emu.url));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: no monitor labelled "mx-us1"; did you mean "mx-us-1" or "mx-eu-1"?\n');
  });

  it('drill refuses anything but a local emulator', async () => {
    const r = await monsync(['drill', 'mx-eu-1', '--minutes', '5'], { ...v1Env(emu.url), MONSYNC_URL: 'https://api.knowledgefront.com' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: api\.knowledgefront\.com is not a loopback address; drill only runs against the monsync emulator/);
  });
});
