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
import { runApply } from '../../src/cli/apply.js';
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

  it('a destination listed twice with the same id and values is one destination, not an ambiguous label', async () => {
    await applied();
    const r = await apply(M1, [{ path: '/v1/Config/AlertDestination/', rewrite: repeatEntry('alertdestination_list', (d) => d.label === 'ops-mail') }]);
    expect(String(r.code)).not.toMatch(/ambiguous/);
    expect(r.code).toBe(0);
    expect(r.writes).toEqual([]);
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


/** M1 plus `newmon` with an alert, both in group `mail`. */
const M2 = config(
  [
    '  - label: m1',
    '    ip_address: m1.example.com',
    '    alerts:',
    '      - { subject_init: "m1 DOWN", subject_term: "m1 UP" }',
    '  - label: newmon',
    '    ip_address: newmon.example.com',
    '    alerts:',
    '      - { subject_init: "newmon DOWN", subject_term: "newmon UP" }',
  ].join('\n'),
  'groups:\n  - { name: mail, monitors: [m1, newmon] }\n',
);

/** A create answer whose object carries `id` instead of the one the service gave it. */
const answeredWithId = (key: string, id: string) => (body: Record<string, unknown>) => {
  const o = body[key] as Record<string, unknown>;
  return { ...body, [key]: { ...o, id: typeof o.id === 'number' ? Number(id) : id } };
};

describe("a write's answer must be about what was written", () => {
  it('a monitor create answered with the id of an existing monitor fails: its alert and group membership are not started, exit 1', async () => {
    const before = await applied();
    const legacy = before.monitors.find((m) => m.label === 'legacy-mx')!;
    const r = await apply(M2, [{ method: 'POST', path: MONITORS, rewrite: answeredWithId('monitor', legacy.id) }]);
    expect(r.code).toBe(1);
    expect(r.io.stdout).toContain(
      `x monitor "newmon" failed: the service answered with id ${legacy.id}, which the account already held for monitor "legacy-mx"; what the create made is not known`,
    );
    expect(r.io.stdout).toMatch(/\. alert "newmon" \/ "newmon DOWN" skipped: needs monitor "newmon"/);
    expect(r.io.stdout).toMatch(/\. group "mail" skipped: needs monitor "newmon"/);
    // Nothing was sent on the answer's word: no alert, no group update.
    expect(r.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['POST /v1/Config/Monitor/']);
    const after = await live();
    expect(after.alerts.filter((a) => a.monitor === legacy.id)).toEqual([]);
    expect(after.groups.find((g) => g.name === 'mail')!.monitors).not.toContain(legacy.id);
  });

  it('an alert create answered with another subject fails, naming what the service answered', async () => {
    await applied();
    const r = await apply(M2, [
      {
        method: 'POST',
        path: ALERTS,
        rewrite: (b) => ({ ...b, alert: { ...(b.alert as Record<string, unknown>), subject_init: 'someone else DOWN' } }),
      },
    ]);
    expect(r.code).toBe(1);
    expect(r.io.stdout).toMatch(
      /x alert "newmon" \/ "newmon DOWN" failed: the service answered an alert with subject_init "someone else DOWN" \(id \d+\), not the one sent/,
    );
  });
});

/** A write's body changed on its way to the service, as a service that keeps something else would. */
const storing = (change: (body: Record<string, unknown>) => Record<string, unknown>) => (body: Record<string, unknown>) => change({ ...body });

describe('a write the service did not keep is an error, not a success', () => {
  it('a time zone stored as another name is named with both values; apply exits 4 and says the account still differs', async () => {
    await applied();
    const r = await apply(M1.replace('time_zone: Europe/London', 'time_zone: US/Eastern'), [
      { method: 'PUT', path: /^\/v1\/Config\/Monitor\/\d+\/$/, rewriteRequest: storing((b) => ({ ...b, time_zone: 'America/New_York' })) },
    ]);
    expect(r.io.stdout).toContain('~ monitor "m1" updated');
    expect(r.io.stdout).toContain(
      '! not kept: the service stored time_zone "America/New_York" for "US/Eastern": write that value in the configuration',
    );
    expect(r.io.stdout).toMatch(/Apply incomplete: 1 done, 0 failed, 0 skipped, 1 not kept by the service\./);
    expect(r.io.stderr).toContain(
      'Error: the account still differs from the configuration after apply (1 change, shown above): the service did not keep 1 write as sent (marked "not kept" above); exit 4.',
    );
    expect(r.code).toBe(4);
  });

  it('a timer the service dropped from the update is named; exit 4', async () => {
    await applied();
    const r = await apply(M1.replace('timer: 5', 'timer: 10'), [
      { method: 'PUT', path: /^\/v1\/Config\/Monitor\/\d+\/$/, rewriteRequest: storing(({ timer: _dropped, ...rest }) => rest) },
    ]);
    expect(r.io.stdout).toContain('! not kept: the service stored timer 5 for 10: it did not keep the value sent');
    expect(r.code).toBe(4);
  });

  it('a monitor created under a label cut short fails: its alert and group are not started and nothing is deleted', async () => {
    await applied();
    const long = 'a-monitor-with-a-rather-long-label';
    const yaml = M2.replaceAll('newmon', long);
    const cut = (b: Record<string, unknown>) => ({ ...b, label: String(b.label).slice(0, 20) });
    const r = await apply(yaml, [{ method: 'POST', path: MONITORS, rewriteRequest: storing(cut) }]);
    expect(r.code).toBe(1);
    expect(r.io.stdout).toContain(`x monitor "${long}" failed: the service answered a monitor with label "${long.slice(0, 20)}"`);
    expect(r.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['POST /v1/Config/Monitor/']);
    // The next apply neither deletes what the first one made nor creates it again: it stops, naming both.
    const again = await apply(yaml, [{ method: 'POST', path: MONITORS, rewriteRequest: storing(cut) }]);
    expect(again.code).toBeInstanceOf(Error);
    expect((again.code as { details?: string[] }).details?.join('\n')).toContain(`the account has monitor "${long.slice(0, 20)}" (id `);
    expect(again.writes).toEqual([]);
  });
});

describe('validate, plan and the service agree on the timeout of an alert (issue 23, 6b)', () => {
  it('a top-level alert on an HTTP monitor without a timeout is applied, and the next apply finds nothing to change', async () => {
    const yaml = ['version: 1', 'settings: { owner: b23 }', 'alerts:', '  - { monitor: www-http, subject_init: "www down", subject_term: "www up", alert_destinations: [ops-mail] }', ''].join('\n');
    const first = await apply(yaml);
    expect(first.code, first.io.stdout + first.io.stderr + String(first.code)).toBe(0);
    expect(first.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['POST /v1/Config/Alert/']);
    const again = await apply(yaml);
    expect(again.code).toBe(0);
    expect(again.writes).toEqual([]);
  });
});
