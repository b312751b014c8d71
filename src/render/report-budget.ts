/**
 * The error budgets of `monsync report` (ops/report-slo.ts) as the renderers show them, the same in
 * every format: the rows (groups, then monitors, in the report's order; `rankedByLeft` for the
 * Markdown's ranking), their cells, and the words. Pure.
 */
import type { Budget } from '../ops/report-slo.js';
import type { Report } from '../ops/report.js';
import { NONE, day, dur, pct } from './report-words.js';

export interface BudgetRow {
  kind: 'group' | 'monitor';
  name: string;
  budget: Budget;
}

/** Every group's and monitor's budget, groups first; empty when no objective applies. */
export function budgetRows(r: Report): BudgetRow[] {
  const rows: BudgetRow[] = [];
  for (const g of r.groups) if (g.budget) rows.push({ kind: 'group', name: g.name, budget: g.budget });
  for (const m of r.monitors) if (m.budget) rows.push({ kind: 'monitor', name: m.label, budget: m.budget });
  return rows;
}

/** Least budget left first (overspent ones first of all), those without tests last; ties by name. */
export function rankedByLeft(rows: readonly BudgetRow[]): BudgetRow[] {
  const key = (b: Budget) => b.leftPercent ?? Infinity;
  return [...rows].sort((a, b) => key(a.budget) - key(b.budget) || a.name.localeCompare(b.name));
}

/** `99.5%`: the objective as written, no binary noise. */
export function objectivePct(b: Budget): string {
  return `${Number((b.objective * 100).toPrecision(10))}%`;
}

/** `99.5% over 30d`, `99.9% over 30d, round trip ≤ 30s`. */
export function objectiveText(b: Budget): string {
  return `${objectivePct(b)} over ${dur(b.windowSeconds)}${b.roundTripSeconds !== null ? `, round trip ≤ ${dur(b.roundTripSeconds)}` : ''}`;
}

/** A number of tests to one decimal (a budget is a share of tests), `−` when negative. */
export function tests1(n: number): string {
  const s = (Math.round(Math.abs(n) * 10) / 10).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return n < -0.05 ? `−${s}` : s;
}

/** A duration that may be negative (a budget overspent): `−1h 20m`. */
export function signedDur(seconds: number): string {
  return seconds < 0 && Math.floor(-seconds) > 0 ? `−${dur(-seconds)}` : dur(Math.max(0, seconds));
}

export function leftPct(b: Budget): string {
  if (b.leftPercent === null) return NONE;
  const v = Math.round(b.leftPercent * 10) / 10;
  return v < 0 ? `−${Math.abs(v)}%` : `${v}%`;
}

/** `met`, `missed`, `missed, budget spent 2026-10-03`, `no tests`. */
export function statusText(b: Budget): string {
  if (b.met === null) return 'no tests';
  const gone = b.goneOn !== null ? `, budget spent ${day(b.goneOn)}` : '';
  return `${b.met ? 'met' : 'missed'}${gone}`;
}

export const BUDGET_HEAD = ['objective', 'attainment', 'bad / tests', 'budget', 'spent', 'left', 'budget time', 'spent time', 'left time', 'left %', 'status'];

/** The cells of one row under BUDGET_HEAD (without the name). */
export function budgetCells(b: Budget): string[] {
  return [
    objectiveText(b),
    pct(b.attainment),
    `${b.bad.toLocaleString('en-US')} / ${b.tests.toLocaleString('en-US')}`,
    tests1(b.allowedTests),
    b.bad.toLocaleString('en-US'),
    tests1(b.leftTests),
    dur(b.allowedSeconds),
    dur(b.spentSeconds),
    signedDur(b.leftSeconds),
    leftPct(b),
    statusText(b),
  ];
}

/** What the budget section says of the tests counted bad (a line under the table). */
export const BUDGET_LEGEND =
  'A test counts against an objective when it failed, or completed slower than its round-trip bound. Budget = (1 − objective) × tests (or × the period, in time); spent = the bad tests (their share of the period, in time).';
