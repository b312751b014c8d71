/**
 * The operator commands that read several lists cross-check them like plan does (issue 12,
 * section 1): `pause`/`resume --alert`, `paused` and `drill`, against the emulator behind a lying
 * proxy. A contradiction is read once more; a second one stops the command before it sends a call,
 * with the message plan gives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/util/errors.js';
import { runDrillCommand } from '../../src/cli/drill.js';
import { runPause, runPaused } from '../../src/cli/pause.js';
import { runDoctorCommand } from '../../src/cli/doctor.js';
import { runMaintain } from '../../src/cli/maintain.js';
import { writeTree } from '../config/helpers.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { emptyAlertList, startLyingProxy, type Lie, type LyingProxy } from '../helpers/lying-proxy.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env, type OpsAccount } from './helpers.js';

let emu: TestEmulator;
let acct: OpsAccount;
let proxy: LyingProxy | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(async () => {
  await proxy?.close();
  await emu.close();
});
beforeEach(async () => {
  await proxy?.close();
  proxy = undefined;
  acct = await seedAccount(emu);
  await emu.control.clearRequests();
});

/** A captured CommandIo pointed at a fresh proxy telling `lies`. */
async function lyingIo(lies: Lie[]) {
  proxy = await startLyingProxy(emu.url, lies);
  return captureIo(v1Env(proxy.url));
}

const writes = async () => (await emu.control.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const emptyMonitorList = (): unknown => ({ monitor_list: [] });

/** mx-eu-1 has two alerts, mx-us-1 one: an empty alert list leaves 3 alert ids named by the monitor list. */
const missingAlerts = () => [acct.alerts.euDown, acct.alerts.euSlow, acct.alerts.usDown].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

describe('pause --alert', () => {
  it('an alert list answered empty twice: refused naming the monitor and alert lists; not one pause sent', async () => {
    const io = await lyingIo([{ path: '/v1/Config/Alert/', rewrite: emptyAlertList }]);
    const run = runPause({ alert: ['mx-eu-1:mx-eu-1 is DOWN'], for: '30m' }, io);
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(
      `the monitor list names 3 alerts the alert list does not contain (e.g. id ${missingAlerts()[0]}): the service answered an incomplete alert list; nothing was sent`,
    );
    expect(proxy!.lied.get('/v1/Config/Alert/')).toBe(2);
    expect(await writes()).toEqual([]);
  });

  it('one stale alert page: read again, and the alert is paused', async () => {
    const io = await lyingIo([{ path: '/v1/Config/Alert/', rewrite: emptyAlertList, times: 1 }]);
    expect(await runPause({ alert: ['mx-eu-1:mx-eu-1 is DOWN'], for: '30m' }, io)).toBe(0);
    expect(await writes()).toEqual([`POST /v1/Pause/Alert/${acct.alerts.euDown}/`]);
  });

  it('--monitor alone reads only the monitor list: nothing to cross-check, one read', async () => {
    const io = await lyingIo([]);
    expect(await runPause({ monitor: ['mx-us-1'], for: '5m' }, io)).toBe(0);
    const reads = (await emu.control.requests()).filter((r) => r.method === 'GET').map((r) => r.path);
    expect(reads).toEqual(['/v1/Config/Monitor/']);
  });
});

describe('paused', () => {
  it('a monitor list answered empty twice: refused, nothing listed', async () => {
    const io = await lyingIo([{ path: '/v1/Config/Monitor/', rewrite: emptyMonitorList }]);
    const run = runPaused({}, io);
    await expect(run).rejects.toThrow(/^the alert list names 2 monitors the monitor list does not contain \(e\.g\. id \d+\): the service answered an incomplete monitor list; nothing was listed$/);
    expect(io.stdout).toBe('');
  });
});

describe('drill', () => {
  it('an alert list answered empty twice: refused before the emulator is touched (no outage, clock not moved)', async () => {
    const before = await emu.control.clock();
    const io = await lyingIo([{ path: '/v1/Config/Alert/', rewrite: emptyAlertList }]);
    const run = runDrillCommand('mx-eu-1', { minutes: '30' }, io);
    await expect(run).rejects.toThrow(/the service answered an incomplete alert list; the emulator was not touched$/);
    expect(io.stdout).toBe('');
    expect((await emu.control.clock()).offset_seconds).toBe(before.offset_seconds);
    expect(await writes()).toEqual([]);
  });
});

describe('doctor and maintain read the account through the command context (issue 35)', () => {
  it('doctor: one stale alert page is read again, and the account check says the first read contradicted itself', async () => {
    const io = await lyingIo([{ path: '/v1/Config/Alert/', rewrite: emptyAlertList, times: 1 }]);
    expect(await runDoctorCommand([], { json: true }, io)).toBe(0);
    const account = (JSON.parse(io.stdout) as { checks: { id: string; status: string; details?: string[] }[] }).checks.find((c) => c.id === 'account')!;
    expect(account.status).toBe('warning');
    expect(account.details?.join('\n')).toMatch(/the first read of the account contradicted itself .*; read again: consistent\./);
  });

  it('maintain: one stale alert page is read again, and the healed read is said on stderr', async () => {
    const dir = await writeTree({
      'monsync.yaml': 'version: 1\nmaintenance:\n  - name: always\n    monitors: ["mx-*"]\n    weekly: { days: [mon, tue, wed, thu, fri, sat, sun], at: "00:00" }\n    duration: 23h\n    time_zone: UTC\n',
    });
    proxy = await startLyingProxy(emu.url, [{ path: '/v1/Config/Alert/', rewrite: emptyAlertList, times: 1 }]);
    const io = captureIo(v1Env(proxy.url), { now: () => Date.now(), cwd: dir });
    expect(await runMaintain([], { dryRun: true, json: true }, io)).toBe(0);
    expect(io.stderr).toMatch(/the first read of the account contradicted itself .*; read again: consistent\./);
  });
});
