import { describe, expect, it } from 'vitest';
import { loadFast } from '../../src/config/fast/index.js';
import { loadConfig, type LoadResult } from '../../src/config/index.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');

const head = `version: 1
monitors:
  - label: mx-eu-1
    ip_address: mx.example.com
    test_account: probe@example.com
    timer: 5
    time_zone: Europe/London
    alerts:
      - subject_init: down
        subject_term: up
        timeout: 15
groups:
  - name: production
    monitors: [mx-eu-1]
maintenance:
`;

async function load(windows: string, fullPath = false): Promise<LoadResult> {
  return loadConfig([{ name: 'm.yaml', text: head + windows }], { env: {}, now: NOW, fullPath });
}

function problems(r: LoadResult): string[] {
  const list = 'diagnostics' in r ? r.diagnostics : r.warnings;
  return list.map((d) => `${d.line}:${d.column} ${d.severity ?? 'error'} ${d.message}`);
}

describe('maintenance windows in the configuration', () => {
  it('loads one-off, cron and weekly windows into the state, on the fast and the full path alike', async () => {
    const text = `  - name: patch-tuesday
    monitors: ["mx-eu-*"]
    groups: [production]
    cron: "0 2 * * 2"
    duration: 2h
    time_zone: Europe/London
  - name: us-migration
    monitors: [mx-eu-1]
    start: "2026-12-03T22:00"
    end: "2026-12-04T02:00"
    time_zone: America/New_York
  - name: sunday
    monitors: [mx-eu-1]
    weekly: { days: [sun], at: "04:00" }
    duration: 30m
    time_zone: Europe/London
`;
    // The fast path gives up on plain scalars such as `2h` and on flow mappings, so this file takes
    // the full path (CONTRIBUTING, "Config loader"), which loadConfig falls back to: same state.
    expect(loadFast({ path: 'm.yaml', display: 'm.yaml', text: head + text })).toBeUndefined();
    const fast = await load(text);
    const full = await load(text, true);
    expect(problems(fast)).toEqual([]);
    if (!('state' in fast) || !('state' in full)) throw new Error('not loaded');
    expect(fast.state.maintenance).toEqual(full.state.maintenance);
    expect(fast.state.maintenance?.map(({ source, ...w }) => w)).toEqual([
      { name: 'patch-tuesday', monitors: ['mx-eu-*'], groups: ['production'], time_zone: 'Europe/London', cron: '0 2 * * 2', duration_seconds: 7200 },
      { name: 'us-migration', monitors: ['mx-eu-1'], groups: [], time_zone: 'America/New_York', start: '2026-12-03T22:00', end: '2026-12-04T02:00' },
      { name: 'sunday', monitors: ['mx-eu-1'], groups: [], time_zone: 'Europe/London', cron: '0 4 * * 0', duration_seconds: 1800 },
    ]);
    expect(fast.state.maintenance?.[1]?.source).toEqual({ file: 'm.yaml', line: 22, column: 5 });
  });

  it('reports a bad cron, a duration that is none, an unknown time zone and an end before the start at their line and column', async () => {
    const r = await load(`  - name: a
    monitors: [mx-eu-1]
    cron: "0 25 * * *"
    duration: 2 hours and a bit
    time_zone: Europe/Lundon
  - name: b
    monitors: [mx-eu-1]
    start: "2026-12-04T02:00"
    end: "2026-12-03T22:00"
    time_zone: Europe/London
  - name: c
    monitors: [mx-eu-1]
    cron: "0 2 * *"
    duration: 1h
    time_zone: Europe/London
`);
    expect(problems(r)).toEqual([
      expect.stringMatching(/^18:11 error cron "0 25 \* \* \*" is not valid: .*hour/),
      '19:15 error duration: "2 hours and a bit" is not a duration; e.g. 90s, 30m, 2h, 1d or 1h30m (a bare number is seconds)',
      expect.stringMatching(/^20:16 error unknown time zone "Europe\/Lundon"; did you mean "Europe\/London"\?/),
      '24:10 error maintenance window "b" ends (2026-12-03T22:00) before it starts (2026-12-04T02:00) in Europe/London: end must be after start',
      '28:11 error cron "0 2 * *" has 4 fields; write five: minute hour day-of-month month day-of-week (e.g. "0 2 * * 2")',
    ]);
  });

  it('reports overlapping windows of the same monitors, and a window longer than its period', async () => {
    const r = await load(`  - name: nightly
    monitors: [mx-eu-1]
    cron: "0 1 * * *"
    duration: 2h
    time_zone: Europe/London
  - name: tuesday
    groups: [production]
    monitors: ["mx-*"]
    weekly: { days: [tue], at: "02:30" }
    duration: 1h
    time_zone: Europe/London
  - name: hourly
    monitors: [mx-other]
    cron: "0 * * * *"
    duration: 90m
    time_zone: UTC
`);
    expect(problems(r)).toEqual([
      expect.stringMatching(/^21:11 error maintenance window "tuesday" overlaps "nightly" \(line 16, column 11\) on monitor "mx-eu-1": from 2026-12-01T02:30Z to 2026-12-01T03:00Z/),
      '28:16 warning "mx-other" matches no monitor declared in the configuration; maintain covers the account\'s monitors of that label when it runs',
      expect.stringMatching(/^30:15 error maintenance window "hourly" lasts longer than the time between two of its occurrences/),
    ]);
  });

  it('warns, at end, of a one-off window a century long (a typo in the year), and at duration of a recurring one longer than 31 days', async () => {
    const text = `  - name: upgrade
    monitors: [mx-eu-1]
    start: "2027-03-01T22:00"
    end: "2127-03-02T02:00"
    time_zone: Europe/London
  - name: quarterly
    groups: [production]
    cron: "0 2 1 */3 *"
    duration: 40d
    time_zone: UTC
  - name: month-of-works
    groups: [production]
    start: "2027-06-01T00:00"
    end: "2027-07-02T00:00"
    time_zone: UTC
`;
    for (const fullPath of [false, true]) {
      const r = await load(text, fullPath);
      expect('state' in r, 'a warning does not stop the load').toBe(true);
      expect(problems(r)).toEqual([
        '19:10 warning maintenance window "upgrade" lasts 36,524 days (2027-03-01T22:00 to 2127-03-02T02:00): longer than 31 days, so maintain would keep its alerts paused for all of it; check the year of end, or split planned works into windows of at most 31 days',
        '24:15 warning each occurrence of maintenance window "quarterly" lasts 40 days (duration: 40d): longer than 31 days, so maintain would keep its alerts paused for all of it; check duration, or split planned works into windows of at most 31 days',
      ]);
    }
  });

  it('lets windows of the same monitors follow each other, and windows of different monitors overlap', async () => {
    const r = await load(`  - name: first
    monitors: [mx-eu-1]
    start: "2026-12-01T01:00"
    end: "2026-12-01T02:00"
    time_zone: Europe/London
  - name: second
    monitors: [mx-eu-1]
    start: "2026-12-01T02:00"
    end: "2026-12-01T03:00"
    time_zone: Europe/London
  - name: elsewhere
    groups: [other]
    start: "2026-12-01T01:00"
    end: "2026-12-01T03:00"
    time_zone: Europe/London
`);
    expect(problems(r)).toEqual([
      '27:14 warning group "other" is not declared in the configuration; maintain covers its members in the account when it runs',
    ]);
  });

  it('refuses a window that says not when, or two ways of when, or covers nothing', async () => {
    const r = await load(`  - name: none
    monitors: [mx-eu-1]
    time_zone: UTC
  - name: both
    monitors: [mx-eu-1]
    cron: "0 2 * * *"
    start: "2026-12-01T01:00"
    end: "2026-12-01T02:00"
    time_zone: UTC
  - name: empty
    start: "2026-12-01T01:00"
    end: "2026-12-01T02:00"
    time_zone: UTC
  - name: none
    monitors: [mx-eu-1]
    cron: "0 3 * * *"
    time_zone: UTC
  - name: nowhere
    monitors: [mx-eu-1]
    cron: "0 3 * * *"
    duration: 1h
`);
    expect(problems(r)).toEqual([
      '16:5 error maintenance window "none" says not when: give start and end (one-off), or cron or weekly with duration (recurring)',
      '19:5 error maintenance window "both" gives cron and start/end: give one of them (start and end, cron, or weekly)',
      '25:5 error maintenance window "empty" covers nothing: give monitors (labels or globs) or groups',
      '29:5 error maintenance window "none" has cron but no duration: say how long each occurrence lasts (e.g. duration: 2h)',
      '29:11 error maintenance window name "none" is already defined at line 16, column 11',
      '33:5 error maintenance window "nowhere" has no time_zone: say which zone its times are in (e.g. time_zone: Europe/London)',
    ]);
  });

  it('refuses a window naming an ignored label, glob or group, as docs/semantics.md says of every reference to an ignored name (issue 45)', async () => {
    const withIgnore = (windows: string) =>
      loadConfig([{ name: 'm.yaml', text: head.replace('version: 1\n', 'version: 1\nsettings:\n  ignore: [mx-legacy-*, old-*]\n') + windows }], { env: {}, now: NOW });
    const r = await withIgnore(`  - name: legacy
    monitors: [mx-legacy-*, mx-legacy-2, "mx-*"]
    groups: [old-group]
    weekly: { days: [sun], at: "04:00" }
    duration: 30m
    time_zone: Europe/London
`);
    const said = problems(r).filter((p) => !p.includes('warning'));
    expect(said).toEqual([
      expect.stringMatching(/^\d+:\d+ error "mx-legacy-\*" matches settings\.ignore glob "mx-legacy-\*": monsync never touches ignored monitors, and a pause is a change; remove it from the window or narrow the glob$/),
      expect.stringMatching(/^\d+:\d+ error "mx-legacy-2" matches settings\.ignore glob "mx-legacy-\*"/),
      expect.stringMatching(/^\d+:\d+ error group "old-group" matches settings\.ignore glob "old-\*": monsync never touches ignored groups/),
    ]);
  });
});
