/**
 * The renderers' fixture (report-fixture.ts) judged by objectives, the way buildReport judges it
 * (ops/report-slo.ts ObjectiveBook over the same raw tests): mx-eu-1 at 99.9% over 30 days with a
 * 30 s round-trip bound (its 40 s replies count), mx-us-1 at 99.5% over 7 days, the group `mail` at
 * 99.9% over 7 days; ping-core and the group `europe` without one.
 */
import { ObjectiveBook, shorterThanWindowNote } from '../../src/ops/report-slo.js';
import type { Report } from '../../src/ops/report.js';
import { dur } from '../../src/render/report-words.js';
import { FROM, TO, fixtureReport, fixtureSpecs } from './report-fixture.js';

const DAY = 86_400;

export function fixtureReportWithObjectives(): Report {
  const r = fixtureReport();
  const book = new ObjectiveBook({
    monitors: new Map([
      ['mx-eu-1', { objective: 0.999, window_seconds: 30 * DAY, round_trip_seconds: 30 }],
      ['mx-us-1', { objective: 0.995, window_seconds: 7 * DAY }],
    ]),
    groups: new Map([['mail', { objective: 0.999, window_seconds: 7 * DAY }]]),
  });
  const period = { from: FROM, to: TO };
  for (const spec of fixtureSpecs()) {
    const counter = book.counterFor(spec.label, spec.groups);
    for (const t of spec.t) counter?.add(t.t, t.failed, t.value);
    const row = r.monitors.find((m) => m.id === spec.id)!;
    const budget = book.monitorRead(spec.label, spec.groups, row.figures.days, counter, period);
    if (budget) row.budget = budget;
  }
  for (const g of r.groups) {
    const budget = book.groupBudget(g.name, period);
    if (budget) g.budget = budget;
  }
  const note = shorterThanWindowNote([...r.monitors, ...r.groups].flatMap((x) => (x.budget ? [x.budget] : [])), TO - FROM, dur);
  if (note) r.notes.push(note);
  return r;
}
