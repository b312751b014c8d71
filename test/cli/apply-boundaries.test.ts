/**
 * `monsync apply` in process against the emulator behind a lying proxy (issue 23): what the service
 * answers is checked before anything is done on its word. A list that repeats an entry, a create
 * answered with another object's id, a write the service did not keep: each is caught, named, and
 * never turns into a delete or a change on something that was not meant.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply-run.js';
import { startTestEmulator, type RecordedRequest, type TestEmulator } from '../helpers/emulator.js';
import { captureIo, type CapturedIo } from '../helpers/io.js';
import { addEntries, repeatEntry, startLyingProxy, type Lie } from '../helpers/lying-proxy.js';

const ALERTS = '/v1/Config/Alert/';
const GROUPS = '/v1/Config/Group/';
const MONITORS = '/v1/Config/Monitor/';

let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  dir = await mkdtemp(join(tmpdir(), 'monsync-boundaries-'));
});

afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await emu.control.reset('default');
});

interface Run {
  code: number | Error;
  io: CapturedIo;
  writes: RecordedRequest[];
}

const ENV = { MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' };

/** Applies `yaml` through a proxy telling `lies`; the emulator's request log is cleared first. */
async function apply(yaml: string, lies: Lie[] = []): Promise<Run> {
  const file = join(dir, `monsync-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, yaml);
  await emu.control.clearRequests();
  const proxy = await startLyingProxy(emu.url, lies);
  const io = captureIo(ENV);
  try {
    const code = await runApply([file], { url: proxy.url, autoApprove: true, parallelism: '4' }, io).catch((err: unknown) => err as Error);
    const writes = (await emu.control.requests()).filter((r) => r.method !== 'GET');
    return { code, io, writes };
  } finally {
    await proxy.close();
  }
}

const config = (monitors: string, extra = ''): string =>
  [
    'version: 1',
    'settings:',
    '  owner: b23',
    'defaults:',
    '  monitor: { time_zone: Europe/London, timer: 5, test_account: probe@example.com }',
    '  alert: { timeout: 15, alert_destinations: [ops-mail] }',
    'monitors:',
    monitors,
    extra,
  ].join('\n');

const M1 = config(
  [
    '  - label: m1',
    '    ip_address: m1.example.com',
    '    alerts:',
    '      - { subject_init: "m1 DOWN", subject_term: "m1 UP" }',
  ].join('\n'),
  'groups:\n  - { name: mail, monitors: [m1] }\n',
);

interface Live {
  monitors: { id: string; label: string; type: string; alerts: string[]; time_zone?: string; timer?: number }[];
  alerts: { id: string; monitor: string; subject_init: string }[];
  groups: { id: string; name: string; monitors: string[] }[];
}
const live = async () => (await emu.control.state()) as unknown as Live;

/** The account with M1 applied, the request log cleared. */
async function applied(): Promise<Live> {
  const r = await apply(M1);
  expect(r.code, r.io.stdout + r.io.stderr + String(r.code)).toBe(0);
  return live();
}

describe('an entry a list repeats is one entry', () => {
  it('an alert listed twice with the same id and values is one alert: no change, nothing sent, exit 0', async () => {
    const before = await applied();
    const m1 = before.monitors.find((m) => m.label === 'm1')!;
    const r = await apply(M1, [{ path: ALERTS, rewrite: repeatEntry('alert_list', (a) => String(a.monitor) === m1.id) }]);
    expect(r.io.stdout).not.toMatch(/duplicate of/);
    expect(r.writes).toEqual([]);
    expect(r.code).toBe(0);
    expect((await live()).alerts).toEqual(before.alerts);
  });

  it('a group listed twice with the same id and values is one group: no change, nothing sent, exit 0', async () => {
    await applied();
    const r = await apply(M1, [{ path: GROUPS, rewrite: repeatEntry('groups', (g) => g.name === 'mail') }]);
    expect(r.io.stdout).not.toMatch(/duplicate of/);
    expect(r.writes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('copies of one alert id that differ stop apply after a second read, naming the id, and nothing is sent', async () => {
    const before = await applied();
    const alert = before.alerts[0]!;
    const r = await apply(M1, [
      { path: ALERTS, rewrite: repeatEntry('alert_list', (a) => String(a.id) === alert.id, (a) => ({ ...a, subject_term: 'stale' })) },
    ]);
    expect(r.code).toBeInstanceOf(Error);
    expect((r.code as Error).message).toBe(
      `the alert list holds 1 alert more than once, the copies differing (e.g. id ${alert.id}): ` +
        'the service answered an alert list that repeats an entry with different values; nothing was sent',
    );
    expect(r.writes).toEqual([]);
  });

  it('a second entry of another id that the monitor\'s alerts field does not name stops apply; the real alert stays', async () => {
    const before = await applied();
    const alert = before.alerts[0]!;
    const stale = (list: Record<string, unknown>[]) => list.filter((a) => String(a.id) === alert.id).map((a) => ({ ...a, id: 99999 }));
    const r = await apply(M1, [{ path: ALERTS, rewrite: addEntries('alert_list', stale) }]);
    expect(r.code).toBeInstanceOf(Error);
    expect((r.code as Error).message).toMatch(
      /^the alert list names 1 alert on monitors whose own alerts field does not name them \(e\.g\. id 99999\): the service answered monitor and alert lists that disagree; nothing was sent$/,
    );
    expect(r.writes).toEqual([]);
    expect((await live()).alerts).toEqual(before.alerts);
  });
});

