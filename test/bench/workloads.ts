/**
 * The in-process workloads whose speed used to be a target inside a test (issue 34: a bound on wall
 * time is a benchmark). Each builds its input and returns what the tests check, so the test asserts
 * the result (test/plan/scale.test.ts, test/emulator/store.test.ts, test/emulator/simulation.test.ts,
 * test/config/hostile.test.ts) and test/bench/in-process.bench.ts times the very same work
 * (`npm run bench:in-process`; figures in docs/performance.md).
 */
import { loadConfig } from '../../src/config/index.js';
import { EmulatorClock } from '../../src/emulator/clock.js';
import { EmulatorStore } from '../../src/emulator/store/index.js';
import { diff } from '../../src/plan/diff.js';
import { writeTree } from '../config/helpers.js';
import { NOW, TARGET, dAlert, dGroup, dMonitor, desiredState, dest, liveAlert, liveGroup, liveMonitor } from '../plan/helpers.js';

/** A live account of `n` monitors (half owned), two alerts each, one group of 3,000, and its desired half. */
export function largeAccount(n = 5000) {
  const monitors = Array.from({ length: n }, (_, i) => liveMonitor({ id: `m${i}`, label: `mx-${i}`, timer: i % 7 === 0 ? 10 : 5, meta: i % 2 ? { 'managed-by': 'mail-team' } : {} }));
  const alerts = monitors.flatMap((m, i) => [liveAlert({ id: `a${i}`, monitor: m.id, subject_init: `${m.label} down` }), liveAlert({ id: `b${i}`, monitor: m.id, subject_init: `${m.label} slow` })]);
  // Built directly: the liveState helper's cross-referencing is quadratic.
  const live = { monitors, alerts, groups: [liveGroup('g', 'all', monitors.slice(0, 3000))], destinations: [dest('d1', 'ops')] };
  const desired = desiredState({
    monitors: monitors.filter((_, i) => i % 2 === 1 && i % 5 !== 0).map((m) => dMonitor(m.label, {}, { alerts: [dAlert(`${m.label} down`)] })),
    groups: [dGroup('all', monitors.slice(1000, 4000).filter((_, i) => i % 2 === 0).map((m) => m.label))],
  });
  return { desired, live };
}

export function planLargeAccount(account: ReturnType<typeof largeAccount>) {
  return diff(account.desired, account.live, { target: TARGET, now: NOW });
}

/** 10,000 monitors and 20,000 alerts created in the emulator's store; then listed, counted, paused, 1,000 deleted. */
export function storeOfThousands() {
  const s = new EmulatorStore(new EmulatorClock());
  const ids: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    ids.push(s.createMonitor({ type: 'smtp', label: `m${i}`, timer: 5, time_zone: 'Europe/Berlin', ip_address: 'mx.example.com', test_account: 'probe@example.com', meta: { n: String(i % 7) } }).id as string);
  }
  for (let i = 0; i < 20_000; i++) {
    s.createAlert({ type: 'up-down', monitor: ids[i % ids.length], subject_init: 'd', subject_term: 'u', timeout: 5 });
  }
  const counts = {
    monitors: s.listMonitors().length,
    alerts: s.listAlerts().length,
    status: s.status().monitor_list.length,
    filtered: s.filterStatus({ t: 1800, meta: [['n', '3']] }).length,
    pauses: 0,
    alertsAfterDeletes: 0,
  };
  s.pauseAll(60);
  counts.pauses = s.listPauses().length;
  for (const id of ids.slice(0, 1000)) s.deleteMonitor(id);
  counts.alertsAfterDeletes = s.listAlerts().length;
  return counts;
}

/** A day of minute checks for 2,000 alerting monitors (200 of them in a 2-hour outage), then a day of filter counts. */
export function dayOfChecks() {
  const clock = new EmulatorClock();
  const s = new EmulatorStore(clock, { simSeed: 'scale', failureRate: 0.05 });
  const ids: string[] = [];
  for (let i = 0; i < 2000; i++) {
    ids.push(s.createMonitor({ type: 'smtp', label: `m${i}`, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'a@example.org' }).id as string);
  }
  for (const id of ids) s.createAlert({ type: 'up-down', monitor: id, subject_init: 'd', subject_term: 'u', timeout: 10, repeat: true, alert_destinations: [] });
  for (const id of ids.slice(0, 200)) s.setOutage(id, 7200);
  clock.advance(86_400);
  const active = s.status().monitor_list.filter((m) => m.alert_active).length;
  const rows = s.filterStatus({ t: 86_400, prefix: 'm' });
  return { active, rows };
}

/** The billion-laughs document: nine levels of nine aliases each. */
export function aliasBombText(): string {
  const levels = ['x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) levels.push(`x-${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return `version: 1\n${levels.join('\n')}\n`;
}

/** Loads the alias bomb from a file, as validate would. */
export async function loadAliasBomb() {
  const dir = await writeTree({ 'bomb.yaml': aliasBombText() });
  return { dir, result: await loadConfig(['bomb.yaml'], { env: {}, cwd: dir }) };
}
