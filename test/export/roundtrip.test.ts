/**
 * export -> validate -> plan (only adoptions) -> apply -> plan (nothing), run as a user would:
 * `node bin/monsync.js` against the emulator, seeded with an account made by hand over the years.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { buildDist, cliEnv, monsync } from '../ci/build.js';

/** Quirks of the API document: display-form types, `EMAIL`, `timer` as a string, `hostname`, groups of mixed types. */
const MESSY = {
  destinations: [
    { id: 'd1', label: 'ops-mail', destination: 'ops@example.com', type: 'EMAIL', subscribed: true },
    { id: 'd2', label: 'oncall-sms', destination: '+15555550100', type: 'SMS', subscribed: true },
    { id: 'd3', label: 'duty-voice', destination: '+15555550101', type: 'voice', subscribed: false },
  ],
  monitors: [
    {
      id: 'm1', label: 'mx-eu-1', type: 'smtp', description: null, ip_address: 'mx:failover', port: 25, ipv6: false,
      use_tls: 'auto', use_client_cert: false, test_account: 'probe@example.com', attachment: '', custom_subject: '',
      custom_body: '', message_format: 'text/plain', timer: '5', ttl: 600, timeout: 30, time_zone: 'Europe/London',
      data_label: 'seconds', meta: { region: 'eu' }, alerts: ['a1', 'a2'], groups: ['g1'],
    },
    {
      id: 'm2', label: 'mx-eu-2', type: 'smtp', ip_address: 'mx2.example.com', port: 587, ipv6: false, use_tls: 'on',
      test_account: 'probe@example.com', attachment: 'pdf', custom_subject: 'EU2', message_format: 'text/html',
      timer: 5, ttl: 0, time_zone: 'Europe/London', meta: {}, alerts: ['a3'], groups: ['g1'],
    },
    {
      // Already ours: exported without the marker, no adoption needed.
      id: 'm3', label: 'mx-us-east', type: 'smtp', ip_address: 'mx.us.example.com', test_account: 'probe-us@example.com',
      use_tls: 'auto', timer: 5, time_zone: 'America/New_York', meta: { 'managed-by': 'monsync', region: 'us' },
      alerts: [], groups: [],
    },
    {
      // Somebody else's configuration owns it: left out, with a warning.
      id: 'm4', label: 'mx-partner', type: 'smtp', ip_address: 'mx.partner.example', test_account: 'probe@example.com',
      timer: 10, time_zone: 'UTC', meta: { 'managed-by': 'partner-team' }, alerts: [], groups: ['g1'],
    },
    { id: 'h1', label: 'www-http', type: 'HTTP', description: 'Public web site', ip_address: 'www.example.com', port: 443, timer: '5', time_zone: 'UTC', meta: {} },
    { id: 'p1', label: 'gw-ping', type: 'Ping', description: null, hostname: '192.0.2.1', timer: 5, time_zone: 'UTC', meta: {} },
    { id: 'q1', label: 'dns-mx', type: 'DNS Query', ip_address: 'example.org', timer: 10, time_zone: 'UTC', meta: {} },
  ],
  alerts: [
    {
      id: 'a1', type: 'Up/Down Alert', monitor: 'm1', alert_destinations: ['d1', 'd2'], subject_init: 'mx-eu-1 is DOWN',
      subject_term: 'mx-eu-1 is UP', message_init: null, message_term: null, down_only: false, repeat: true, timeout: 15, violations: '0',
    },
    { id: 'a2', type: 'up-down', monitor: 'm1', alert_destinations: ['d1'], subject_init: 'mx-eu-1 slow', subject_term: 'mx-eu-1 ok', message_init: 'Look at the queue', message_term: '', down_only: true, repeat: false, timeout: 30 },
    { id: 'a3', type: 'Up/Down Alert', monitor: 'm2', alert_destinations: ['d3', 'd1'], subject_init: 'mx-eu-2 is DOWN', subject_term: 'mx-eu-2 is UP', down_only: false, repeat: false, timeout: 15, violations: '2' },
    { id: 'a4', type: 'Up/Down Alert', monitor: 'h1', alert_destinations: ['d1', 'd2'], subject_init: 'www is DOWN', subject_term: 'www is UP', down_only: false, repeat: false, timeout: 5, violations: '1' },
    { id: 'a5', type: 'up-down', monitor: 'p1', alert_destinations: [], subject_init: 'gateway unreachable', subject_term: 'gateway reachable', down_only: false, repeat: false, timeout: 10 },
  ],
  groups: [
    { id: 'g1', name: 'production', monitors: ['m1', 'm2', 'm4', 'h1'] },
    { id: 'g2', name: 'infrastructure', monitors: ['p1', 'q1', 'h1'] },
    { id: 'g3', name: 'staging', monitors: [] },
  ],
};

let emu: TestEmulator;
let work: string;

beforeAll(async () => {
  await buildDist();
  emu = await startTestEmulator({ seed: 'empty' });
  work = await mkdtemp(join(tmpdir(), 'monsync-export-'));
}, 240_000);

afterAll(async () => {
  await emu?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  await emu.control.reset('empty');
  await emu.control.seed(MESSY);
});

const cli = (...args: string[]) => monsync(args, { cwd: work, env: cliEnv(emu.url) });

interface PlanJson {
  changes: { action: string; kind: string; key: string; changed: string[]; note?: { adopt?: boolean } }[];
}

async function planJson(path: string): Promise<PlanJson> {
  const r = await cli('plan', path, '--format', 'json');
  expect(r.stderr).not.toMatch(/^Error/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PlanJson;
}

describe.each([
  ['a directory, one file per group', 'monitoring/'],
  ['one file', 'monsync.yaml'],
])('export to %s', (_what, out) => {
  it('plans only the adoption of the exported monitors, then converges after apply', async () => {
    const target = join(work, `${out.replace(/\W/g, '')}-${Date.now()}`, out);
    const exported = await cli('export', '--out', target);
    expect(exported.stderr).not.toMatch(/^Error/m);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('"mx-partner" (id m4) is managed by "partner-team"');

    const validated = await cli('validate', target);
    expect({ code: validated.code, out: validated.stdout + validated.stderr }).toMatchObject({ code: 0 });

    const plan = await planJson(target);
    // mx-eu-1 and mx-eu-2 are adopted (the marker added, nothing else); mx-us-east is ours already.
    expect(plan.changes.map((c) => ({ action: c.action, kind: c.kind, key: c.key, changed: c.changed, adopt: c.note?.adopt }))).toEqual([
      { action: 'update', kind: 'monitor', key: 'mx-eu-1', changed: ['meta'], adopt: true },
      { action: 'update', kind: 'monitor', key: 'mx-eu-2', changed: ['meta'], adopt: true },
    ]);

    const applied = await cli('apply', target, '--auto-approve');
    expect({ code: applied.code, err: applied.stderr }).toMatchObject({ code: 0 });

    const again = await cli('plan', target, '--detailed-exitcode');
    expect({ code: again.code, out: again.stdout, err: again.stderr }).toMatchObject({ code: 0 });

    // Nothing monsync does not manage was touched.
    const state = (await emu.control.state()) as { monitors: { id: string; meta: Record<string, string> }[] };
    const meta = Object.fromEntries(state.monitors.map((m) => [m.id, m.meta]));
    expect(meta.m1).toEqual({ region: 'eu', 'managed-by': 'monsync' });
    expect(meta.m4).toEqual({ 'managed-by': 'partner-team' });
    expect(meta.h1).toEqual({});
  }, 120_000);
});

describe('monsync export', () => {
  it('writes groups of mixed types, other-type alerts at the top level and destinations by label', async () => {
    const r = await cli('export');
    expect(r.code).toBe(0);
    const doc = parse(r.stdout);
    // A path that exists for whoever exported: this checkout's schema (the working directory has no monsync of its own).
    const modeline = /^# yaml-language-server: \$schema=(\S*schemas\/monsync\.schema\.json)$/.exec(r.stdout.split('\n')[0]!);
    expect(modeline).not.toBeNull();
    expect(existsSync(join(work, modeline![1]!))).toBe(true);
    expect(doc.defaults).toEqual({ monitor: { timer: 5 } });
    expect(doc.monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1', 'mx-eu-2', 'mx-us-east']);
    expect(doc.monitors[1]).toEqual({
      label: 'mx-eu-2', ip_address: 'mx2.example.com', test_account: 'probe@example.com', time_zone: 'Europe/London',
      use_tls: 'on', port: 587, message_format: 'text/html', attachment: 'pdf', custom_subject: 'EU2',
      alerts: [{ subject_init: 'mx-eu-2 is DOWN', subject_term: 'mx-eu-2 is UP', timeout: 15, alert_destinations: ['duty-voice', 'ops-mail'] }],
    });
    expect(doc.alerts).toEqual([
      { monitor: 'gw-ping', subject_init: 'gateway unreachable', subject_term: 'gateway reachable', timeout: 10 },
      { monitor: 'www-http', subject_init: 'www is DOWN', subject_term: 'www is UP', timeout: 5, alert_destinations: ['oncall-sms', 'ops-mail'] },
    ]);
    expect(doc.groups).toEqual([
      { name: 'infrastructure', monitors: ['dns-mx', 'gw-ping', 'www-http'] },
      { name: 'production', monitors: ['mx-eu-1', 'mx-eu-2', 'mx-partner', 'www-http'] },
      { name: 'staging', monitors: [] },
    ]);
  }, 60_000);

  it('gives the same bytes on a second export, also after the adoption was applied', async () => {
    const dir = join(work, `stable-${Date.now()}`);
    expect((await cli('export', '--out', `${dir}/`)).code).toBe(0);
    const read = async () => Object.fromEntries(await Promise.all((await readdir(dir)).sort().map(async (n) => [n, await readFile(join(dir, n), 'utf8')])));
    const first = await read();
    expect(Object.keys(first)).toEqual(['infrastructure.yaml', 'monsync.yaml', 'production.yaml', 'staging.yaml', 'ungrouped.yaml']);
    expect((await cli('apply', dir, '--auto-approve')).code).toBe(0);
    expect((await cli('export', '--out', dir, '--force')).code).toBe(0);
    expect(await read()).toEqual(first);
  }, 120_000);

  it('refuses to overwrite files without --force', async () => {
    const file = join(work, `exists-${Date.now()}.yaml`);
    await writeFile(file, 'version: 1\n');
    const r = await cli('export', '--out', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('exists; give --force to overwrite it');
    expect(await readFile(file, 'utf8')).toBe('version: 1\n');
  }, 60_000);

  it('refuses duplicate labels among SMTP monitors, naming the ids', async () => {
    await emu.control.seed({ monitors: [{ id: 'm9', label: 'mx-eu-1', type: 'smtp', ip_address: 'x.example.com', test_account: 'p@example.com', timer: 5, time_zone: 'UTC', meta: {} }] });
    const r = await cli('export');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('label "mx-eu-1" is shared by the monitors with ids m1, m9');
    expect(r.stderr).not.toContain('    at ');
  }, 60_000);

  it('--match narrows the export and warns about our monitors it leaves out', async () => {
    const r = await cli('export', '--match', 'mx-eu-*', '--match', 'www-*');
    expect(r.code).toBe(0);
    const doc = parse(r.stdout);
    expect(doc.monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1', 'mx-eu-2']);
    expect(doc.alerts.map((a: { monitor: string }) => a.monitor)).toEqual(['www-http']);
    expect(doc.groups).toBeUndefined();
    expect(r.stderr).toContain('"mx-us-east" (id m3) is marked managed-by: monsync but not exported');
  }, 60_000);
});
