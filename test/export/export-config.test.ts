import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExportError, exportConfig, type ExportOptions } from '../../src/export/index.js';
import type { LiveState } from '../../src/model/live.js';
import { alert, destination, group, live, monitor } from './live-fixture.js';
import { formatted } from '../fmt/helpers.js';

const OPTS: ExportOptions = { owner: 'monsync', schemaPath: '../schemas/monsync.schema.json' };

function account(): LiveState {
  return live({
    monitors: [
      monitor({ id: 'm2', label: 'mx-us-1', ip_address: 'mx.us.example.com', use_tls: 'on', groups: ['g1'] }),
      monitor({ id: 'm1', label: 'mx-eu-1', ip_address: 'mx:failover', ttl: 600, meta: { region: 'eu', 'managed-by': 'monsync' }, groups: ['g1', 'g2'] }),
      monitor({ id: 'h1', label: 'www-http', type: 'http', ip_address: 'www.example.com', test_account: null, groups: null }),
    ],
    alerts: [
      alert({ id: 'a2', monitor: 'm1', subject_init: 'mx-eu-1 slow', alert_destinations: ['d1'] }),
      alert({ id: 'a1', monitor: 'm1', subject_init: 'mx-eu-1 is DOWN', subject_term: 'mx-eu-1 is UP', alert_destinations: ['d2', 'd1'], repeat: true }),
      alert({ id: 'a3', monitor: 'm2', subject_init: 'mx-us-1 is DOWN', alert_destinations: ['d1'] }),
      alert({ id: 'a4', monitor: 'h1', subject_init: 'www down', subject_term: 'www up', timeout: 5, alert_destinations: ['d1'] }),
    ],
    groups: [
      group('g2', 'staging', [['m1', 'mx-eu-1']]),
      group('g1', 'production', [['m1', 'mx-eu-1'], ['m2', 'mx-us-1'], ['h1', 'www-http']]),
    ],
    destinations: [destination('d1', 'ops-mail'), destination('d2', 'oncall-sms', 'sms')],
  });
}

function only(result: { files: { name: string; content: string }[] }) {
  expect(result.files).toHaveLength(1);
  return result.files[0]!.content;
}

describe('exportConfig', () => {
  it('writes SMTP monitors with their alerts, other-type alerts top level, groups by label', () => {
    const result = exportConfig(account(), OPTS);
    const doc = parse(only(result));
    expect(doc.version).toBe(1);
    expect(doc.settings).toEqual({ owner: 'monsync' });
    expect(doc.monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1', 'mx-us-1']);
    const eu = doc.monitors[0];
    expect(eu).toEqual({
      label: 'mx-eu-1',
      ip_address: 'mx:failover',
      test_account: 'probe@example.com',
      ttl: 600,
      meta: { region: 'eu' },
      alerts: [
        { subject_init: 'mx-eu-1 is DOWN', subject_term: 'mx-eu-1 is UP', timeout: 15, alert_destinations: ['oncall-sms', 'ops-mail'], repeat: true },
        { subject_init: 'mx-eu-1 slow', subject_term: 'mx-eu-1 slow (resolved)', timeout: 15, alert_destinations: ['ops-mail'] },
      ],
    });
    expect(doc.monitors[1].use_tls).toBe('on');
    expect(doc.alerts).toEqual([{ monitor: 'www-http', subject_init: 'www down', subject_term: 'www up', timeout: 5, alert_destinations: ['ops-mail'] }]);
    expect(doc.groups).toEqual([
      { name: 'production', monitors: ['mx-eu-1', 'mx-us-1', 'www-http'] },
      { name: 'staging', monitors: ['mx-eu-1'] },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.counts).toEqual({ monitors: 2, alerts: 4, groups: 2 });
  });

  it('factors values every monitor / alert shares into defaults and leaves documented defaults out', () => {
    const doc = parse(only(exportConfig(account(), OPTS)));
    // Every alert goes to ops-mail (a1 also to oncall-sms): not shared, so not factored.
    expect(doc.defaults).toEqual({ monitor: { timer: 5, time_zone: 'Europe/London' } });
    const text = only(exportConfig(account(), OPTS))
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    for (const absent of ['port:', 'ipv6:', 'message_format:', 'attachment:', 'custom_subject:', 'down_only:', 'message_init:', 'managed-by', 'type:']) {
      expect(text).not.toContain(absent);
    }
    // Top-level alert aside, every alert has timeout 15: with it gone they share timeout and destinations.
    const l = account();
    l.alerts = l.alerts.filter((a) => a.id !== 'a4' && a.id !== 'a1');
    const doc2 = parse(only(exportConfig(l, OPTS)));
    expect(doc2.defaults.alert).toEqual({ timeout: 15, alert_destinations: ['ops-mail'] });
    expect(doc2.monitors[0].alerts[0]).toEqual({ subject_init: 'mx-eu-1 slow', subject_term: 'mx-eu-1 slow (resolved)' });
  });

  it('keeps values that differ from the documented default and null (unsent) fields as defaults', () => {
    const l = live({
      monitors: [
        monitor({ id: '1', label: 'a', port: 587, ipv6: true, message_format: 'text/html', attachment: 'pdf', custom_subject: 'S', custom_body: 'B' }),
        monitor({ id: '2', label: 'b', port: null, ipv6: null, use_tls: null, ttl: null, message_format: null, custom_body: null, custom_subject: null }),
      ],
    });
    const doc = parse(only(exportConfig(l, OPTS)));
    expect(doc.monitors[0]).toMatchObject({ port: 587, ipv6: true, message_format: 'text/html', attachment: 'pdf', custom_subject: 'S', custom_body: 'B' });
    expect(Object.keys(doc.monitors[1])).toEqual(['label', 'ip_address', 'test_account']);
  });

  it('quotes strings a YAML 1.1 reader would take for booleans', () => {
    const l = live({ monitors: [monitor({ id: '1', label: 'on', use_tls: 'off', meta: { yes: 'no' } })] });
    const text = only(exportConfig(l, OPTS));
    expect(text).toContain('label: "on"');
    expect(text).toContain('use_tls: "off"');
    expect(parse(text).monitors[0].meta).toEqual({ yes: 'no' });
  });

  it('writes every file exactly as `monsync fmt` would, so an exported directory passes `fmt --check` (single file and split)', async () => {
    const l = account();
    l.monitors.push(monitor({ id: 'm9', label: 'relay', ip_address: 'relay.example.net', port: 587, ipv6: true, use_tls: 'on', meta: { site: 'fra', tier: '1' }, groups: [] }));
    for (const split of [false, true]) {
      const files = exportConfig(l, { ...OPTS, split }).files;
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(await formatted(f.content)).toBe(f.content);
    }
    const text = only(exportConfig(l, OPTS));
    // fmt's style: identity first, flow mappings with inner spaces, lists without.
    expect(text).toMatch(/- label: relay\n\s+ip_address: relay\.example\.net\n\s+port: 587\n\s+test_account: /);
    expect(text).toContain('settings: { owner: monsync }');
    expect(text).toContain('meta: { site: fra, tier: "1" }');
    expect(text).toMatch(/alert_destinations: \[oncall-sms, ops-mail\]/);
  });

  it('puts the schema modeline first', () => {
    const text = only(exportConfig(account(), OPTS));
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/monsync.schema.json');
  });

  it('gives the same bytes whatever order the account lists things in', () => {
    const a = account();
    const b: LiveState = {
      monitors: [...a.monitors].reverse(),
      alerts: [...a.alerts].reverse().map((x) => ({ ...x, alert_destinations: [...x.alert_destinations].reverse() })),
      groups: [...a.groups].reverse().map((g) => ({ ...g, members: [...g.members].reverse() })),
      destinations: [...a.destinations].reverse(),
    };
    expect(exportConfig(b, OPTS).files).toEqual(exportConfig(a, OPTS).files);
    expect(exportConfig(b, { ...OPTS, split: true }).files).toEqual(exportConfig(a, { ...OPTS, split: true }).files);
  });

  it('warns about a destination id with no label and keeps it out', () => {
    const l = account();
    l.alerts[0] = { ...l.alerts[0]!, alert_destinations: ['d1', 'd404'] };
    const result = exportConfig(l, OPTS);
    expect(result.warnings).toEqual([expect.stringContaining('destination id d404 has no known label')]);
    const slow = parse(only(result)).monitors[0].alerts[1];
    expect(slow.alert_destinations).toEqual(['ops-mail']);
  });

  it('refuses duplicate labels among exported monitors, listing the ids', () => {
    const l = account();
    l.monitors.push(monitor({ id: 'm9', label: 'mx-eu-1' }));
    let err: unknown;
    try {
      exportConfig(l, OPTS);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportError);
    expect((err as ExportError).problems).toEqual(['label "mx-eu-1" is shared by the monitors with ids m1, m9']);
  });

  it('refuses an SMTP label that a monitor of another type also has', () => {
    const l = account();
    l.monitors.push(monitor({ id: 'p1', label: 'mx-us-1', type: 'ping', groups: null }));
    expect(() => exportConfig(l, OPTS)).toThrow(ExportError);
  });

  it('refuses two alerts with one subject on one monitor', () => {
    const l = account();
    l.alerts.push(alert({ id: 'a9', monitor: 'm2', subject_init: 'mx-us-1 is DOWN' }));
    expect(() => exportConfig(l, OPTS)).toThrow(/1 conflict/);
  });

  it('leaves out monitors managed by another owner, with a warning', () => {
    const l = account();
    l.monitors[0] = { ...l.monitors[0]!, meta: { 'managed-by': 'web-team' } };
    const result = exportConfig(l, OPTS);
    expect(parse(only(result)).monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1']);
    expect(result.warnings.join('\n')).toContain('managed by "web-team"');
  });

  it('--match selects monitors and groups by glob and warns when a glob matches nothing', () => {
    const result = exportConfig(account(), { ...OPTS, match: ['mx-us-*', 'nothing-*'] });
    const doc = parse(only(result));
    expect(doc.monitors.map((m: { label: string }) => m.label)).toEqual(['mx-us-1']);
    expect(doc.groups).toBeUndefined();
    expect(doc.alerts).toBeUndefined();
    expect(result.warnings).toContain('--match nothing-* matched no monitor or group');
    // mx-eu-1 carries our marker: a plan of this export deletes it, and the user must hear so.
    expect(result.warnings.join('\n')).toContain('"mx-eu-1" (id m1) is marked managed-by: monsync but not exported');
  });

  it('leaves out a top-level alert without a timeout rather than have the plan set one', () => {
    const l = account();
    l.alerts[3] = { ...l.alerts[3]!, timeout: null };
    const result = exportConfig(l, OPTS);
    expect(parse(only(result)).alerts).toBeUndefined();
    expect(result.warnings.join('\n')).toContain('has no timeout');
  });

  it('split: settings and defaults in monsync.yaml, one file per group (first by name), ungrouped.yaml', () => {
    const l = account();
    l.monitors.push(monitor({ id: 'm3', label: 'mx-ap-1' }));
    l.groups.push(group('g3', 'Prod / EU', []));
    const result = exportConfig(l, { ...OPTS, split: true });
    expect(result.files.map((f) => f.name)).toEqual(['monsync.yaml', 'prod-eu.yaml', 'production.yaml', 'staging.yaml', 'ungrouped.yaml']);
    const docs = Object.fromEntries(result.files.map((f) => [f.name, parse(f.content)]));
    expect(Object.keys(docs['monsync.yaml'])).toEqual(['version', 'settings', 'defaults']);
    expect(docs['production.yaml'].monitors.map((m: { label: string }) => m.label)).toEqual(['mx-eu-1', 'mx-us-1']);
    expect(docs['production.yaml'].alerts.map((a: { monitor: string }) => a.monitor)).toEqual(['www-http']);
    expect(docs['production.yaml'].groups).toEqual([{ name: 'production', monitors: ['mx-eu-1', 'mx-us-1', 'www-http'] }]);
    expect(docs['staging.yaml'].monitors).toBeUndefined();
    expect(docs['prod-eu.yaml'].groups).toEqual([{ name: 'Prod / EU', monitors: [] }]);
    expect(docs['ungrouped.yaml'].monitors.map((m: { label: string }) => m.label)).toEqual(['mx-ap-1']);
    for (const f of result.files) {
      expect(f.content.startsWith('# yaml-language-server: $schema=../schemas/monsync.schema.json\n')).toBe(true);
      expect(parse(f.content).version).toBe(1);
    }
    // The split holds exactly what the single file holds.
    const single = parse(only(exportConfig(l, OPTS)));
    const merged = {
      monitors: result.files.flatMap((f) => parse(f.content).monitors ?? []),
      alerts: result.files.flatMap((f) => parse(f.content).alerts ?? []),
      groups: result.files.flatMap((f) => parse(f.content).groups ?? []),
    };
    const byKey = (k: string) => (x: Record<string, string>, y: Record<string, string>) => (x[k]! < y[k]! ? -1 : 1);
    expect(merged.monitors.sort(byKey('label'))).toEqual(single.monitors);
    expect(merged.alerts).toEqual(single.alerts);
    expect(merged.groups.sort(byKey('name'))).toEqual(single.groups);
  });

  it('split: group names that slug alike or clash with the fixed files get distinct names', () => {
    const l = live({ groups: [group('1', 'a b', []), group('2', 'a-b', []), group('3', 'monsync', []), group('4', '***', [])] });
    const names = exportConfig(l, { ...OPTS, split: true }).files.map((f) => f.name);
    expect(names).toEqual(['monsync.yaml', 'group.yaml', 'a-b.yaml', 'a-b-2.yaml', 'monsync-2.yaml', 'ungrouped.yaml']);
  });
});

// Issue 23, item 5: every line monsync prints is terminal-safe, export's YAML on stdout included;
// the characters must stay the same data when the YAML is read back.
describe('exportConfig with text that acts on a terminal', () => {
  const H = '\u202e\u009b31m\u2028\u001b[2K\u2066';
  it('writes such strings double-quoted with \\u escapes: no raw unsafe character, and they read back unchanged', () => {
    const hostile = live({
      monitors: [monitor({ id: 'm1', label: `mx-${H}`, ip_address: 'mx.example.com', meta: { [`k${H}`]: `v${H}`, 'managed-by': 'monsync' } })],
      alerts: [alert({ id: 'a1', monitor: 'm1', subject_init: `down ${H}`, alert_destinations: ['d1'] })],
      destinations: [destination('d1', 'ops-mail')],
    });
    const text = only(exportConfig(hostile, OPTS));
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]/u);
    const doc = parse(text);
    expect(doc.monitors[0].label).toBe(`mx-${H}`);
    expect(doc.monitors[0].meta).toEqual({ [`k${H}`]: `v${H}` });
    expect(doc.monitors[0].alerts[0].subject_init).toBe(`down ${H}`);
  });

  it('writes text whose only unsafe character is invisible or a direction mark escaped in double quotes, so it reads back unchanged', () => {
    const l = live({ monitors: [monitor({ id: 'm1', label: 'zero\u200bwidth', custom_subject: '\ufeffbom', meta: { note: 'a\u202eb', 'managed-by': 'monsync' } })] });
    const text = only(exportConfig(l, OPTS));
    expect(text).toContain('label: "zero\\u200bwidth"');
    const doc = parse(text);
    expect([doc.monitors[0].label, doc.defaults.monitor.custom_subject, doc.monitors[0].meta.note]).toEqual(['zero\u200bwidth', '\ufeffbom', 'a\u202eb']);
  });

  it('writes a meta key "<<" quoted, as text: plain it would be a merge key', () => {
    const l = live({ monitors: [monitor({ id: 'm1', label: 'mx', meta: { '<<': 'x', 'managed-by': 'monsync' } })] });
    const text = only(exportConfig(l, OPTS));
    expect(text).toContain('meta: { "<<": x }');
    expect(parse(text).monitors[0].meta).toEqual({ '<<': 'x' });
  });
});
