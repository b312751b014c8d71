/**
 * `monsync test`'s report as text (a terminal, a CI log) and as Markdown (a pull-request comment):
 * per monitor its outcome and steps, its findings, a summary line, what cannot be tested from here
 * (the return leg) and the service's sending addresses for allow-lists. Pure; everything a mail
 * server or the YAML said is made terminal-safe (and Markdown-literal).
 */
import pc from 'picocolors';
import { formatFinding } from './findings.js';
import type { MailPathReport, MonitorPath, Outcome, StepStatus } from '../mailpath/test-paths.js';
import { SENDING_ADDRESS_LIST, SERVICE_SENDING_ADDRESSES } from '../mailpath/sending-addresses.js';
import type { VerifyResult } from '../mailpath/verify.js';
import { leftOutNote } from '../api/data-rules.js';
import { escapeControl } from '../util/safe-text.js';
import { plural } from '../util/plural.js';
import { codeBlock, mdCode, mdText } from './plan-markdown.js';

export interface MailPathRenderOptions {
  color?: boolean;
  /** What was tested, for the heading: the configuration paths. */
  where?: string;
}

const MARK: Record<StepStatus, string> = { pass: '✓', note: '·', warning: '!', fail: '✗', unreachable: '?', skipped: '-' };
const OUTCOME_MARK: Record<Outcome, string> = { pass: '✓', warning: '!', fail: '✗', inconclusive: '?' };
const OUTCOME_ICON: Record<Outcome, string> = { pass: '✅', warning: '⚠️', fail: '❌', inconclusive: '❔' };

/** The line printed when no server could be reached: the exit code says the same (3). */
export function inconclusiveLine(report: Pick<MailPathReport, 'ports'>): string {
  const ports = report.ports.join(', ');
  return `inconclusive: this machine cannot reach port ${ports} (commonly blocked on CI runners); run \`monsync test\` where mail can be sent`;
}

export function summaryLine(report: MailPathReport): string {
  const c = report.counts;
  const parts = [`${c.pass} passed`];
  if (c.warning) parts.push(`${c.warning} with warnings`);
  parts.push(`${c.fail} failed`);
  if (c.inconclusive) parts.push(`${c.inconclusive} inconclusive`);
  return `${plural(report.monitors.length, 'monitor')} tested in ${(report.elapsedMs / 1000).toFixed(1)} s: ${parts.join(', ')}`;
}

const RETURN_LEG = [
  'Not tested from here: the return leg (the test account forwarding the message back to the service);',
  '`monsync apply --verify` waits for the first round trip after apply.',
];

function allowList(): string {
  return `Mail servers that filter by sender address must allow the service's sending addresses: ${SENDING_ADDRESS_LIST.join(', ')}.`;
}

function targetText(m: MonitorPath): string {
  return `${m.target}:${m.port} -> <${m.test_account}>`;
}

export function renderMailPathText(report: MailPathReport, opts: MailPathRenderOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const paintStep: Record<StepStatus, (s: string) => string> = { pass: c.green, note: c.dim, warning: c.yellow, fail: c.red, unreachable: c.yellow, skipped: c.dim };
  const paintOutcome: Record<Outcome, (s: string) => string> = { pass: c.green, warning: c.yellow, fail: c.red, inconclusive: c.yellow };
  const out: string[] = [];
  out.push(`monsync test${opts.where ? ` ${escapeControl(opts.where)}` : ''}: the mail path of each monitor, from this machine (nothing is sent: no DATA)`, '');
  for (const m of report.monitors) {
    out.push(`${paintOutcome[m.outcome](`${OUTCOME_MARK[m.outcome]} ${m.outcome.padEnd(12)}`)} ${c.bold(escapeControl(m.label))}  ${escapeControl(targetText(m))}`);
    const width = Math.max(0, ...m.steps.map((s) => s.step.length));
    for (const s of m.steps) {
      const time = s.ms !== undefined ? c.dim(` (${s.ms} ms)`) : '';
      out.push(`    ${paintStep[s.status](MARK[s.status])} ${s.step.padEnd(width)}  ${escapeControl(s.text)}${time}`);
    }
    for (const f of m.findings) out.push(`    ${(f.severity === 'error' ? c.red : c.yellow)(escapeControl(formatFinding(f)))}`);
  }
  if (report.monitors.length === 0) out.push('No SMTP monitors to test.');
  out.push('', summaryLine(report));
  if (report.inconclusive) out.push(c.yellow(inconclusiveLine(report)), 'What DNS found still counts.');
  out.push('', ...RETURN_LEG, allowList());
  return `${out.join('\n')}\n`;
}

export function renderMailPathMarkdown(report: MailPathReport, opts: MailPathRenderOptions = {}): string {
  const out: string[] = [];
  out.push(`### monsync test${opts.where ? ` — ${mdCode(opts.where)}` : ''}`, '');
  out.push(`**${mdText(summaryLine(report))}**`, '');
  if (report.inconclusive) out.push(`> ❔ ${mdText(inconclusiveLine(report))}. What DNS found still counts.`, '');
  if (report.monitors.length > 0) {
    out.push('| | monitor | delivery | result |', '|---|---|---|---|');
    for (const m of report.monitors) {
      const worst = m.findings[0]?.message ?? m.steps.find((s) => s.status === 'unreachable')?.text ?? 'every step passed';
      out.push(`| ${OUTCOME_ICON[m.outcome]} | ${mdCode(m.label)} | ${mdCode(targetText(m))} | ${mdText(worst)} |`);
    }
    out.push('', '<details><summary>Steps</summary>', '');
    const lines: string[] = [];
    for (const m of report.monitors) {
      lines.push(`${OUTCOME_MARK[m.outcome]} ${m.label}  ${targetText(m)}`);
      const width = Math.max(0, ...m.steps.map((s) => s.step.length));
      for (const s of m.steps) lines.push(`    ${MARK[s.status]} ${s.step.padEnd(width)}  ${s.text}${s.ms !== undefined ? ` (${s.ms} ms)` : ''}`);
      for (const f of m.findings) lines.push(`    ${formatFinding(f)}`);
    }
    out.push(codeBlock('text', lines), '', '</details>', '');
  }
  out.push(RETURN_LEG.join(' '), '', mdText(allowList()));
  return `${out.join('\n')}\n`;
}

/** One line per verified monitor: `apply --verify`'s report of its first round trip. */
export function renderVerifyLine(r: VerifyResult, opts: { color?: boolean } = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const label = c.bold(escapeControl(r.label));
  switch (r.status) {
    case 'completed':
      return `  ${c.green('✓')} ${label}: round trip completed in ${r.seconds} s${leftOutText(r)}`;
    case 'no-reply': {
      const recorded = r.error ? ` (the service recorded: ${escapeControl(r.error)})` : ` within ${r.waitedSeconds} s`;
      return `  ${c.red('✗')} ${label}: no reply${recorded}: is the test account's forwarder set up?${leftOutText(r)}`;
    }
    case 'failed':
      return `  ${c.red('✗')} ${label}: the first test failed: ${escapeControl(r.error)}${leftOutText(r)}`;
    case 'deleted':
      return `  ${c.yellow('!')} ${label}: deleted while it was being verified (the service no longer has it): not verified`;
  }
}

/** The data rules' note, when they left something out of the answer the line is drawn from. */
function leftOutText(r: VerifyResult): string {
  const note = leftOutNote(r.leftOut);
  return note === null ? '' : ` (${note.replace(/\.$/, '')})`;
}

export function renderVerifySummary(results: readonly VerifyResult[]): string {
  const ok = results.filter((r) => r.status === 'completed').length;
  const bad = results.length - ok;
  return bad === 0
    ? `Verified: ${plural(ok, 'round trip')} completed.`
    : `Verify failed: ${bad} of ${plural(results.length, 'monitor')} did not complete a round trip.`;
}

/** `monsync test --format json`: the report, its outcome and what it cannot test, for machines. */
export function renderMailPathJson(report: MailPathReport, outcome: 'pass' | 'fail' | 'inconclusive'): string {
  const body = {
    format_version: 1,
    outcome,
    inconclusive: report.inconclusive ? inconclusiveLine(report) : null,
    counts: report.counts,
    elapsed_ms: Math.round(report.elapsedMs),
    monitors: report.monitors,
    not_tested: 'the return leg: the test account forwarding the message back to the service (`monsync apply --verify`)',
    service_sending_addresses: SERVICE_SENDING_ADDRESSES,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
