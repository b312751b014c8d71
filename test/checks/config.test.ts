/**
 * The checks' configuration in YAML: settings.checks and disable_checks load into the state and
 * steer the findings; misspelt names are refused with "did you mean"; the schema lists exactly the
 * catalogue's names, with its explanations and defaults, for editors.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS, runChecks } from '../../src/checks/index.js';
import { formatFinding } from '../../src/render/findings.js';
import { loadConfig } from '../../src/config/index.js';
import { loadFiles } from '../config/helpers.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'checks');
type S = Record<string, any>;
const schema = JSON.parse(readFileSync(path.join(ROOT, 'schemas', 'monsync.schema.json'), 'utf8')) as S;

describe('settings.checks and disable_checks in YAML', () => {
  it('raise, silence and turn off checks as configured (test/fixtures/checks/configured.yaml)', async () => {
    const r = await loadConfig(['configured.yaml'], { cwd: FIXTURES, env: {} });
    if (!('state' in r)) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.state.settings.checks).toEqual({ 'alert/missing': 'error', 'group/empty': 'off' });
    expect(r.state.monitors.map((m) => m.disable_checks)).toEqual([undefined, ['alert/missing'], ['alert/timeout-below-timer']]);
    expect(r.state.monitors[2]!.alerts.map((a) => a.disable_checks)).toEqual([['alert/unreachable'], undefined]);
    expect(runChecks(r.state).map(formatFinding)).toEqual([
      'configured.yaml:14:5: error alert/missing: monitor "mx-1" has no alert; nobody is told when it fails',
      'configured.yaml:31:9: warning alert/unreachable: alert "loud" on monitor "mx-3" has no destination; when it triggers, nobody is told',
    ]);
  });

  it('disable_checks on a top-level alert and on a group load too', async () => {
    const r = await loadFiles({
      'a.yaml':
        'version: 1\nalerts:\n  - { monitor: www-http, subject_init: a, subject_term: b, timeout: 15, disable_checks: [alert/unreachable] }\n' +
        'groups:\n  - { name: g, monitors: [], disable_checks: [group/empty] }\n',
    });
    if (!('state' in r)) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.state.alerts[0]!.disable_checks).toEqual(['alert/unreachable']);
    expect(r.state.groups[0]!.disable_checks).toEqual(['group/empty']);
    expect(runChecks(r.state)).toEqual([]);
  });

  it('a configuration without them loads as before: no checks key, no disable_checks', async () => {
    const r = await loadConfig(['alert-missing.yaml'], { cwd: FIXTURES, env: {} });
    if (!('state' in r)) throw new Error('expected a state');
    expect(r.state.settings).toEqual({ owner: 'monsync', ignore: [], prune: false });
    expect(r.state.monitors.every((m) => !('disable_checks' in m) && m.alerts.every((a) => !('disable_checks' in a)))).toBe(true);
  });

  it('refuses unknown check names with "did you mean", unknown severities, and repeats', async () => {
    const r = await loadFiles({
      'bad.yaml':
        'version: 1\nsettings:\n  checks:\n    alert/mising: error\n    group/empty: fatal\nmonitors:\n  - label: a\n' +
        '    ip_address: mx.example.com\n    test_account: p@example.com\n    timer: 5\n    time_zone: UTC\n' +
        '    disable_checks: [alert/mising, group/empty, group/empty]\n',
    });
    expect('diagnostics' in r && r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '4:5: unknown key "alert/mising" in settings.checks; did you mean "alert/missing"?',
      '5:18: group/empty must be one of error, warning, off (got the text "fatal")',
      `12:22: disable_checks[0] must be one of ${CHECKS.map((c) => c.name).join(', ')} (got the text "alert/mising"); did you mean "alert/missing"?`,
      '12:49: "group/empty" is listed twice in disable_checks',
    ]);
  });
});

describe('the schema and the catalogue', () => {
  const names = CHECKS.map((c) => c.name);
  const props = (p: S) => p.properties as S;
  const disableLists = {
    monitor: props(schema.properties.monitors.items).disable_checks,
    'alert under a monitor': props(props(schema.properties.monitors.items).alerts.items).disable_checks,
    'top-level alert': props(schema.properties.alerts.items).disable_checks,
    group: props(schema.properties.groups.items).disable_checks,
  };

  it('settings.checks has one key per check, described by its explanation and default', () => {
    const checks = props(schema.properties.settings).checks as S;
    expect(checks.additionalProperties).toBe(false);
    expect(Object.keys(checks.properties)).toEqual(names);
    for (const c of CHECKS) {
      expect(checks.properties[c.name]).toEqual({
        type: 'string',
        enum: ['error', 'warning', 'off'],
        description: `${c.explanation} Default \`${c.severity}\`.`,
      });
    }
  });

  it.each(Object.entries(disableLists))('disable_checks on a %s names exactly the checks', (_where, list) => {
    expect(list.items.enum).toEqual(names);
    expect(list.uniqueItems).toBe(true);
  });

  it('defaults cannot carry disable_checks (it belongs to one item)', () => {
    expect(props(schema.properties.defaults.properties.monitor)).not.toHaveProperty('disable_checks');
    expect(props(schema.properties.defaults.properties.alert)).not.toHaveProperty('disable_checks');
  });
});
