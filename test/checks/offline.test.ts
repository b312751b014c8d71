/**
 * The checks that need only the configuration, on YAML fixtures (test/fixtures/checks/), loaded by
 * the real loader: each fixture holds items that must raise a finding and items just beside them
 * that must not, and the test states every finding, with its exact file:line:column.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/index.js';
import { formatFinding } from '../../src/render/findings.js';
import { loadConfig } from '../../src/config/index.js';
import type { DesiredState } from '../../src/model/desired.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'checks');

async function load(file: string): Promise<DesiredState> {
  const r = await loadConfig([file], { cwd: FIXTURES, env: {} });
  if (!('state' in r)) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
  return r.state;
}

async function findings(file: string): Promise<string[]> {
  return runChecks(await load(file)).map(formatFinding);
}

describe('offline checks', () => {
  it('alert/missing: a managed monitor without alerts, or with an empty list, is reported at its label', async () => {
    expect(await findings('alert-missing.yaml')).toEqual([
      'alert-missing.yaml:13:5: warning alert/missing: monitor "mx-eu-2" has no alert; nobody is told when it fails',
      'alert-missing.yaml:16:5: warning alert/missing: monitor "mx-eu-3" has no alert; nobody is told when it fails',
    ]);
  });

  it('alert/unreachable: an alert with an empty destination list, nested or top-level; with a destination, none', async () => {
    expect(await findings('alert-unreachable.yaml')).toEqual([
      'alert-unreachable.yaml:14:9: warning alert/unreachable: alert "mx-1 silent" on monitor "mx-1" has no destination; when it triggers, nobody is told',
      'alert-unreachable.yaml:18:5: warning alert/unreachable: alert "www is DOWN" on monitor "www-http" has no destination; when it triggers, nobody is told',
    ]);
  });

  it('alert/timeout-below-timer and alert/timeout-at-timer: timeout 5 and 10 on a 10-minute timer; 11 raises nothing, nor a top-level alert offline', async () => {
    expect(await findings('alert-timeouts.yaml')).toEqual([
      'alert-timeouts.yaml:14:9: warning alert/timeout-below-timer: alert "below" on monitor "mx-1" has a timeout of 5 minutes, shorter than the monitor\'s timer of 10 minutes: it triggers between two tests, every interval, though no test failed',
      'alert-timeouts.yaml:17:9: warning alert/timeout-at-timer: alert "at" on monitor "mx-1" has a timeout of 10 minutes, the monitor\'s timer: any reply slower than the one before triggers it though no test failed; make it longer than the timer',
    ]);
  });

  it('alert/same-subjects: equal subjects are reported unless the up message is never sent (down_only)', async () => {
    expect(await findings('alert-same-subjects.yaml')).toEqual([
      'alert-same-subjects.yaml:12:9: warning alert/same-subjects: alert "mx-1 changed state" on monitor "mx-1" has the same subject_term: its down and up messages cannot be told apart',
    ]);
  });

  it('monitor/ttl-beyond-timer: a ttl (from defaults or the monitor) longer than the interval; equal to it, shorter, or 0 is fine', async () => {
    expect(await findings('monitor-ttl.yaml')).toEqual([
      'monitor-ttl.yaml:9:5: warning monitor/ttl-beyond-timer: monitor "mx-5" has a ttl of 600 seconds, longer than its timer of 5 minutes (300 seconds): a reply can still count after the next test has started',
      'monitor-ttl.yaml:19:5: warning monitor/ttl-beyond-timer: monitor "mx-15" has a ttl of 1800 seconds, longer than its timer of 15 minutes (900 seconds): a reply can still count after the next test has started',
    ]);
  });

  it('monitor/ip-version-mismatch: an IPv4 address with IPv6-only delivery, an IPv6 address with IPv4 delivery', async () => {
    expect(await findings('monitor-ip-version.yaml')).toEqual([
      'monitor-ip-version.yaml:9:5: warning monitor/ip-version-mismatch: monitor "v4-on-v6" delivers over IPv6 only (ipv6: true) to the IPv4 address "192.0.2.25": every test fails',
      'monitor-ip-version.yaml:13:5: warning monitor/ip-version-mismatch: monitor "v6-on-v4" delivers over IPv4 (ipv6 not set) to the IPv6 address "2001:db8::25": every test fails',
    ]);
  });

  it('group/empty: `monitors: []` offline; a group that does not list its monitors is left to the account', async () => {
    expect(await findings('group-empty.yaml')).toEqual(['group-empty.yaml:15:5: warning group/empty: group "retired" has no members']);
  });

  it('group/empty is left to the account when settings.ignore could keep ignored monitors in an empty list', async () => {
    const state = await load('group-empty.yaml');
    expect(runChecks({ ...state, settings: { ...state.settings, ignore: ['legacy-*'] } })).toEqual([]);
  });
});

describe('the examples', () => {
  const ROOT = path.join(import.meta.dirname, '..', '..');

  it('examples/small raises nothing', async () => {
    const r = await loadConfig(['examples/small'], { cwd: ROOT, env: {} });
    expect('state' in r && runChecks(r.state)).toEqual([]);
  });

  it('examples/realistic raises only the finding its comment announces (submission-us has no alert yet)', async () => {
    const r = await loadConfig(['examples/realistic'], { cwd: ROOT, env: {} });
    expect('state' in r && runChecks(r.state).map(formatFinding)).toEqual([
      'examples/realistic/americas.yaml:51:5: warning alert/missing: monitor "submission-us" has no alert; nobody is told when it fails',
    ]);
  });
});
