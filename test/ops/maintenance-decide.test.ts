/** decideMaintenance, pure: what each covered alert gets from the pauses the account holds. */
import { describe, expect, it } from 'vitest';
import type { DesiredMaintenance } from '../../src/model/desired.js';
import { decideMaintenance, PAUSE_TOLERANCE_SECONDS } from '../../src/ops/maintenance.js';
import { liveAlert, liveMonitor, liveState } from '../plan/helpers.js';

const window = (name: string, start: string, end: string, over: Partial<DesiredMaintenance> = {}): DesiredMaintenance => ({
  name,
  monitors: ['mx-*'],
  groups: [],
  time_zone: 'UTC',
  start,
  end,
  source: { file: 'm.yaml', line: 1, column: 1 },
  ...over,
});

const monitors = [liveMonitor({ id: '1', label: 'mx-1' }), liveMonitor({ id: '2', label: 'other' })];
const alert = (id: string, monitor: string) => liveAlert({ id, monitor, subject_init: `${id} down` });
const live = liveState({ monitors, alerts: [alert('a', '1'), alert('b', '1'), alert('c', '2')] });
const NOW = Date.parse('2026-12-01T02:30:00Z');
const W = window('w', '2026-12-01T02:00', '2026-12-01T03:00');

describe('decideMaintenance', () => {
  it('lengthens a shorter pause to the window\'s end, counts one ending at it (within the tolerance) as done', () => {
    const d = decideMaintenance([W], live, [
      { id: 'a', monitor: '1', seconds: 600 },
      { id: 'b', monitor: '1', seconds: 1800 - PAUSE_TOLERANCE_SECONDS },
    ], NOW);
    expect(d.open[0]!.monitors.map((m) => [m.monitor.label, m.call, m.alerts.map((a) => a.action)])).toEqual([['mx-1', 'alerts', ['pause', 'done']]]);
  });

  it('leaves a pause ending later than the window alone, and covers only the monitors its patterns and groups match', () => {
    const d = decideMaintenance([W], live, [{ id: 'a', monitor: '1', seconds: 1800 + PAUSE_TOLERANCE_SECONDS + 1 }], NOW);
    expect(d.open[0]!.monitors.map((m) => m.alerts.map((a) => a.action))).toEqual([['longer', 'pause']]);
  });

  it('takes a window opening within the tolerance as open (a job scheduled for its start that runs a little early)', () => {
    const start = Date.parse('2026-12-01T02:00:00Z');
    expect(decideMaintenance([W], live, [], start - PAUSE_TOLERANCE_SECONDS * 1000).open.map((o) => o.window.name)).toEqual(['w']);
    expect(decideMaintenance([W], live, [], start - PAUSE_TOLERANCE_SECONDS * 1000 - 1).open).toEqual([]);
  });

  it('is nothing outside the window, and gives a monitor two open windows cover to the one ending last', () => {
    expect(decideMaintenance([W], live, [], Date.parse('2026-12-01T03:00:00Z')).open).toEqual([]);
    const longer = window('longer', '2026-12-01T02:00', '2026-12-01T05:00', { monitors: ['mx-1', 'other'] });
    const d = decideMaintenance([W, longer], live, [], NOW);
    expect(d.open.map((o) => [o.window.name, o.monitors.map((m) => m.monitor.label)])).toEqual([
      ['w', []],
      ['longer', ['mx-1', 'other']],
    ]);
  });

  it('never pauses a monitor settings.ignore matches', () => {
    const d = decideMaintenance([window('w', '2026-12-01T02:00', '2026-12-01T03:00', { monitors: ['*'] })], live, [], NOW, ['oth*']);
    expect(d.open[0]!.monitors.map((m) => m.monitor.label)).toEqual(['mx-1']);
  });

  it('covers the members of a group by name, and names what matches nothing', () => {
    const withGroup = { ...live, groups: [{ id: '9', name: 'prod', members: [{ id: '2', label: 'other' }] }] };
    const d = decideMaintenance([window('g', '2026-12-01T02:00', '2026-12-01T03:00', { monitors: ['nope-*'], groups: ['prod', 'gone'] })], withGroup, [], NOW);
    expect(d.open[0]!.monitors.map((m) => m.monitor.label)).toEqual(['other']);
    expect(d.open[0]!.unmatched).toEqual(['nope-*', 'group gone']);
  });
});
