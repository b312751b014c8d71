/**
 * Runs the catalogue over a desired state (and, when given, the account as plan read it) and turns
 * hits into findings: each at the severity `settings.checks` gives its check (the catalogue's
 * default otherwise; `off` runs it not at all), minus those the item, or the monitor an alert is
 * declared under, silences with `disable_checks`. Pure; findings come sorted by file, line, column.
 */
import type { CheckLevel, DesiredMonitor, DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import { indexAccount } from './account.js';
import { CHECKS, type Check } from './catalogue.js';
import type { Finding, FindingSeverity, Hit, Subject } from './types.js';

/** The severity each check runs at in this configuration. */
export function levelsOf(desired: Pick<DesiredState, 'settings'>): Map<string, CheckLevel> {
  const set = desired.settings.checks ?? {};
  return new Map((CHECKS as readonly Check[]).map((c) => [c.name, set[c.name] ?? c.severity]));
}

function silenced(subject: Subject, check: string): boolean {
  switch (subject.kind) {
    case 'monitor':
      return subject.monitor.disable_checks?.includes(check) ?? false;
    case 'alert':
      return (subject.alert.disable_checks?.includes(check) ?? false) || (subject.monitor?.disable_checks?.includes(check) ?? false);
    case 'group':
      return subject.group.disable_checks?.includes(check) ?? false;
  }
}

function finding(check: string, severity: FindingSeverity, hit: Hit): Finding {
  const s = hit.subject;
  const item = s.kind === 'monitor' ? s.monitor : s.kind === 'alert' ? s.alert : s.group;
  const key = s.kind === 'monitor' ? s.monitor.label : s.kind === 'alert' ? `${s.alert.monitor} / ${s.alert.subject_init}` : s.group.name;
  const { file, line, column } = item.source;
  return { check, severity, message: hit.message, file, line, column, kind: s.kind, key };
}

export function compareFindings(a: Finding, b: Finding): number {
  return (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0);
}

/**
 * The findings of every check that is not off: its `config` part always, its `account` part when
 * `live` is given (plan and apply), never otherwise (validate).
 */
export function runChecks(desired: DesiredState, live?: LiveState): Finding[] {
  const levels = levelsOf(desired);
  const account = live && indexAccount(live);
  const out: Finding[] = [];
  for (const check of CHECKS as readonly Check[]) {
    const level = levels.get(check.name)!;
    if (level === 'off') continue;
    const hits = [...(check.config?.(desired) ?? []), ...(account && check.account ? check.account(desired, account) : [])];
    for (const hit of hits) if (!silenced(hit.subject, check.name)) out.push(finding(check.name, level, hit));
  }
  return out.sort(compareFindings);
}

/** The findings that fail the command: errors, and with `strict` warnings too. */
export function blocking(findings: readonly Finding[], strict = false): Finding[] {
  return findings.filter((f) => f.severity === 'error' || strict);
}

/** What `monsync test` found on a monitor's mail path, under the name of a `live` check. */
export interface LiveHit {
  check: string;
  monitor: DesiredMonitor;
  message: string;
}

/**
 * Findings of the live checks (those `monsync test` runs on the mail path): each at the severity
 * `settings.checks` gives it, none for a check set `off` or silenced by the monitor's
 * `disable_checks`, as runChecks does for the others. Sorted likewise.
 */
export function liveFindings(desired: Pick<DesiredState, 'settings'>, hits: readonly LiveHit[]): Finding[] {
  const levels = levelsOf(desired);
  const out: Finding[] = [];
  for (const hit of hits) {
    const level = levels.get(hit.check);
    if (level === undefined) throw new Error(`unknown check ${hit.check}`);
    if (level === 'off') continue;
    const subject: Subject = { kind: 'monitor', monitor: hit.monitor };
    if (silenced(subject, hit.check)) continue;
    out.push(finding(hit.check, level, { subject, message: hit.message }));
  }
  return out.sort(compareFindings);
}
