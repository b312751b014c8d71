/**
 * `monsync doctor` output: one line per check (ok / warning / problem / skipped) with what to do
 * under warnings and problems, and a summary; or a stable JSON object for machines. Text from the
 * service (labels, error texts) is escaped: it cannot move the cursor or recolour the terminal.
 */
import pc from 'picocolors';
import type { CheckStatus, DoctorReport } from '../ops/doctor.js';
import { plural } from '../util/plural.js';
import { safe } from './ops-words.js';

const LABELS: Record<string, string> = {
  url: 'URL',
  environment: 'environment',
  reachable: 'reachable',
  tls: 'TLS',
  v1: 'API v1',
  v2: 'API v2',
  clock: 'clock',
  account: 'account',
  ownership: 'ownership',
  quirks: 'wire quirks',
  config: 'configuration',
  references: 'references',
};

const WIDTH = Math.max(...Object.values(LABELS).map((l) => l.length));

export function renderDoctorText(report: DoctorReport, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  const paint: Record<CheckStatus, (s: string) => string> = {
    ok: c.green,
    warning: c.yellow,
    problem: (s) => c.red(c.bold(s)),
    skipped: c.dim,
  };
  const lines: string[] = [];
  for (const check of report.checks) {
    const label = (LABELS[check.id] ?? check.id).padEnd(WIDTH);
    lines.push(`  ${paint[check.status](check.status.padEnd(7))}  ${c.bold(label)}  ${safe(check.message)}`);
    const indent = ' '.repeat(2 + 7 + 2 + WIDTH + 2);
    for (const d of check.details ?? []) lines.push(`${indent}${c.dim('·')} ${safe(d)}`);
    if (check.hint && (check.status === 'problem' || check.status === 'warning')) lines.push(`${indent}${c.dim('->')} ${safe(check.hint)}`);
  }
  lines.push('', summary(report, c));
  return `${lines.join('\n')}\n`;
}

function summary(r: DoctorReport, c: ReturnType<typeof pc.createColors>): string {
  if (r.problems > 0) {
    const w = r.warnings > 0 ? `, ${plural(r.warnings, 'warning')}` : '';
    return c.red(`${plural(r.problems, 'problem')}${w}: fix ${r.problems === 1 ? 'it' : 'them'} before the first plan.`);
  }
  if (r.warnings > 0) return c.yellow(`No problems; ${plural(r.warnings, 'warning')}.`);
  return c.green('No problems: monsync is ready to plan.');
}

/** Keys in a fixed order: the same set-up always prints the same bytes (but for times measured). */
export function renderDoctorJson(report: DoctorReport): string {
  const body = {
    ok: report.problems === 0,
    url: report.url,
    problems: report.problems,
    warnings: report.warnings,
    checks: report.checks.map((ch) => ({
      id: ch.id,
      status: ch.status,
      message: ch.message,
      ...(ch.hint !== undefined && { hint: ch.hint }),
      ...(ch.details !== undefined && { details: ch.details }),
    })),
    account: report.account,
    quirks: report.quirks.map((q) => ({ quirk: q.quirk, detail: q.detail, count: q.count })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
