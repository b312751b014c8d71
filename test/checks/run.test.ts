/**
 * The runner over the catalogue: severities from settings.checks, disable_checks on one item (and
 * on a monitor for the alerts under it), --strict, the order of findings; and the catalogue itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS, blocking, levelsOf, needsOf, runChecks } from '../../src/checks/index.js';
import { countFindings, formatFinding } from '../../src/render/findings.js';
import { loadConfig } from '../../src/config/index.js';
import type { DesiredState } from '../../src/model/desired.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'checks');

async function load(file: string): Promise<DesiredState> {
  const r = await loadConfig([file], { cwd: FIXTURES, env: {} });
  if (!('state' in r)) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.state;
}

describe('the catalogue', () => {
  it('names every check once, as area/name, with a default severity, an explanation and something to run', () => {
    const names = CHECKS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHECKS) {
      expect(c.name).toMatch(/^(alert|monitor|group)\/[a-z]+(-[a-z]+)*$/);
      expect(['error', 'warning']).toContain(c.severity);
      expect(c.explanation).toMatch(/^[A-Z].*: .*\.$/);
      // A live check runs in `monsync test` (src/mailpath), which makes its findings.
      expect('config' in c || 'account' in c || ('live' in c && c.live === 'mail path')).toBe(true);
    }
  });

  it('has at least the five checks of issue 15 with their default severities', () => {
    const severity = Object.fromEntries(CHECKS.map((c) => [c.name, c.severity]));
    expect(severity).toMatchObject({
      'alert/missing': 'warning',
      'alert/unreachable': 'warning',
      'alert/timeout-below-timer': 'warning',
      'monitor/ttl-beyond-timer': 'warning',
      'group/empty': 'warning',
    });
    expect(needsOf(CHECKS.find((c) => c.name === 'alert/unreachable')!)).toBe('configuration, account');
    expect(needsOf(CHECKS.find((c) => c.name === 'alert/missing')!)).toBe('configuration');
  });
});

describe('severities and silencing', () => {
  it('settings.checks raises a check to error, or turns one off; the others keep their defaults', async () => {
    const state = await load('alert-missing.yaml');
    const raised = runChecks({ ...state, settings: { ...state.settings, checks: { 'alert/missing': 'error' } } });
    expect(raised.map((f) => [f.key, f.severity])).toEqual([
      ['mx-eu-2', 'error'],
      ['mx-eu-3', 'error'],
    ]);
    expect(runChecks({ ...state, settings: { ...state.settings, checks: { 'alert/missing': 'off' } } })).toEqual([]);
    expect(levelsOf({ settings: { ...state.settings, checks: { 'group/empty': 'off' } } }).get('alert/missing')).toBe('warning');
  });

  it('disable_checks silences one check on one monitor; the same check still fires elsewhere', async () => {
    const state = await load('alert-missing.yaml');
    const [one, two, three] = state.monitors;
    const edited = { ...state, monitors: [one!, { ...two!, disable_checks: ['alert/missing'] }, three!] };
    expect(runChecks(edited).map((f) => f.key)).toEqual(['mx-eu-3']);
    // Another check's name silences nothing here.
    const other = { ...state, monitors: [one!, { ...two!, disable_checks: ['group/empty'] }, three!] };
    expect(runChecks(other).map((f) => f.key)).toEqual(['mx-eu-2', 'mx-eu-3']);
  });

  it("disable_checks on an alert silences that alert; on a monitor, the alerts under it", async () => {
    const state = await load('alert-timeouts.yaml');
    const m = state.monitors[0]!;
    const [below, at, above] = m.alerts;
    const onAlert = { ...state, monitors: [{ ...m, alerts: [{ ...below!, disable_checks: ['alert/timeout-below-timer'] }, at!, above!] }] };
    expect(runChecks(onAlert).map((f) => f.check)).toEqual(['alert/timeout-at-timer']);
    const onMonitor = { ...state, monitors: [{ ...m, disable_checks: ['alert/timeout-below-timer', 'alert/timeout-at-timer'] }] };
    expect(runChecks(onMonitor)).toEqual([]);
  });

  it('disable_checks on a group silences that group', async () => {
    const state = await load('group-empty.yaml');
    const groups = state.groups.map((g) => (g.name === 'retired' ? { ...g, disable_checks: ['group/empty'] } : g));
    expect(runChecks({ ...state, groups })).toEqual([]);
  });

  it('--strict makes warnings block as errors do', async () => {
    const ip = await load('monitor-ip-version.yaml');
    const raised = { ...ip, settings: { ...ip.settings, checks: { 'monitor/ip-version-mismatch': 'error' as const } } };
    const findings = runChecks(raised).concat(runChecks(await load('alert-missing.yaml')));
    expect(blocking(findings).map((f) => f.check)).toEqual(['monitor/ip-version-mismatch', 'monitor/ip-version-mismatch']);
    expect(blocking(findings, true)).toHaveLength(4);
    expect(countFindings(findings)).toBe('2 errors, 2 warnings');
    expect(countFindings([])).toBe('no findings');
  });

  it('sorts findings by file, line and column, and formats them as file:line:column: severity name: message', () => {
    const state: DesiredState = {
      settings: { owner: 'monsync', ignore: [], prune: false },
      monitors: ['b', 'a'].map((label, i) => ({
        label,
        previous_labels: [],
        spec: { ip_address: 'mx.example.com', test_account: 'p@example.com', timer: 5, time_zone: 'UTC' },
        alerts: [],
        source: { file: i === 0 ? 'z.yaml' : 'a.yaml', line: 3, column: 5 },
      })),
      alerts: [],
      groups: [],
      files: ['z.yaml', 'a.yaml'],
    };
    expect(runChecks(state).map(formatFinding)).toEqual([
      'a.yaml:3:5: warning alert/missing: monitor "a" has no alert; nobody is told when it fails',
      'z.yaml:3:5: warning alert/missing: monitor "b" has no alert; nobody is told when it fails',
    ]);
  });
});
