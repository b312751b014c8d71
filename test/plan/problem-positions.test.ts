/**
 * Problems found while planning are said as `validate` says its own (docs/configuration.md: "Mistakes are reported
 * as file:line:column ... with did you mean"): at the value that is wrong, with a suggestion when a
 * name is a near miss of one the configuration or the account has, and a bad value that comes from
 * `defaults` once, at the defaults line, not at every item using it.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { diff, PlanError } from '../../src/plan/diff.js';
import { problemLines } from '../../src/workflow/plan.js';
import { writeTree } from '../config/helpers.js';
import { dest, liveMonitor, liveState } from './helpers.js';

const CONFIG = [
  'version: 1',
  'defaults:',
  '  monitor: { timer: 5, time_zone: Europe/London, test_account: probe@example.com, ip_address: mx.example.com }',
  '  alert: { timeout: 15, alert_destinations: [ops-mial] }',
  'monitors:',
  '  - label: mx-eu-1',
  '    alerts:',
  '      - { subject_init: down, subject_term: up }',
  '  - label: mx-eu-2',
  '    alerts:',
  '      - { subject_init: down, subject_term: up }',
  '      - { subject_init: slow, subject_term: fast, alert_destinations: [ops-mail, on-call-sms] }',
  'alerts:',
  '  - monitor: www-htp',
  '    subject_init: www down',
  '    subject_term: www up',
  'groups:',
  '  - name: europe',
  '    monitors: [mx-eu-1, mx-eu1, gw-ping]',
  '',
].join('\n');

const live = liveState({
  monitors: [
    liveMonitor({ id: '1', label: 'www-http', type: 'http', meta: {} }),
    liveMonitor({ id: '2', label: 'gw-ping', type: 'ping', meta: {} }),
  ],
  destinations: [dest('d1', 'ops-mail'), dest('d2', 'oncall-sms'), dest('d3', 'duty-voice')],
});

async function problems(): Promise<string[]> {
  const dir = await writeTree({ 'monsync.yaml': CONFIG });
  const loaded = await loadConfig(['monsync.yaml'], { cwd: dir, env: {} });
  if (!('state' in loaded)) throw new Error(JSON.stringify(loaded.diagnostics));
  try {
    diff(loaded.state, live, { target: 'http://127.0.0.1:9' });
  } catch (err) {
    if (err instanceof PlanError) return err.problems;
    throw err;
  }
  throw new Error('expected the plan to stop');
}

describe('problems found while planning', () => {
  it('are at file:line:column of the value, with "did you mean", and a default\'s once, at the default', async () => {
    expect((await problems()).sort()).toEqual([
      'monsync.yaml:12:82: alert "mx-eu-2 / slow": unknown alert destination "on-call-sms"; did you mean "oncall-sms"?',
      'monsync.yaml:14:14: alert "www-htp / www down": no monitor "www-htp" in the configuration or the account; did you mean "www-http"?',
      'monsync.yaml:19:25: group "europe": no monitor "mx-eu1" in the configuration or the account; did you mean "mx-eu-1"?',
      'monsync.yaml:4:46: defaults.alert: unknown alert destination "ops-mial"; did you mean "ops-mail"? (taken by 2 alerts: "mx-eu-1 / down", "mx-eu-2 / down")',
    ]);
  });
});

describe('the problems as plan and apply print them', () => {
  it('are file:line:column lines in file order, as validate prints, then the problems about the account alone', async () => {
    const lines = problemLines([...(await problems()), 'monitor "x": this plan would delete id 1, but the account has 2 monitors with this label']);
    expect(lines.map((l) => l.slice(0, 20))).toEqual([
      'monsync.yaml:4:46: d',
      'monsync.yaml:12:82: ',
      'monsync.yaml:14:14: ',
      'monsync.yaml:19:25: ',
      '  - monitor "x": thi',
    ]);
  });
});
