/**
 * Operators name monitors by label and alerts by `MONITOR:SUBJECT`; the API wants ids. Labels are
 * not unique on the service, so an ambiguous label is refused with the candidates rather than
 * guessed, and an unknown one gets the closest labels as "did you mean".
 */
import { UsageError, UserError } from '../util/errors.js';
import type { Alert, Monitor } from '../model/live.js';
import { quote } from '../util/safe-text.js';
import { levenshtein, typoLimit } from '../util/suggest.js';

const MAX_LISTED = 8;

/**
 * Up to `max` candidates worth suggesting: the nearest within a plausible typo (the limit of
 * util/suggest's `closest`), then those containing the input or contained in it.
 */
export function suggestions(input: string, candidates: readonly string[], max = 3): string[] {
  const lower = input.toLowerCase();
  const limit = typoLimit(input);
  const scored = [...new Set(candidates)].map((c) => ({ c, d: levenshtein(lower, c.toLowerCase()) }));
  const byDistance = (a: { c: string; d: number }, b: { c: string; d: number }): number => a.d - b.d || a.c.localeCompare(b.c);
  const best = Math.min(...scored.map((s) => s.d));
  // Only the case differs: that is the one. One edit off: its neighbours one edit further are
  // plausible too (mx-eu1 -> mx-eu-1, mx-eu-2). Further off: only the nearest.
  const cut = Math.min(limit, best === 0 ? 0 : best === 1 ? 2 : best);
  const near = scored.filter((s) => s.d <= cut).sort(byDistance);
  const containing = scored
    .filter((s) => s.d > cut && (s.c.toLowerCase().includes(lower) || (lower.length >= 3 && lower.includes(s.c.toLowerCase()))))
    .sort(byDistance);
  return [...near, ...containing].slice(0, max).map((s) => s.c);
}

function knownList(labels: readonly string[]): string[] {
  const sorted = [...new Set(labels)].sort((a, b) => a.localeCompare(b));
  const shown = sorted.slice(0, MAX_LISTED).map((l) => `  - ${quote(l)}`);
  if (sorted.length > MAX_LISTED) shown.push(`  … and ${sorted.length - MAX_LISTED} more`);
  return shown;
}

function didYouMean(found: string[]): string {
  if (found.length === 0) return '';
  return `; did you mean ${found.map(quote).join(' or ')}?`;
}

export function resolveMonitor(label: string, monitors: readonly Monitor[]): Monitor {
  if (label.trim() === '') throw new UserError('give a monitor label (an empty one names no monitor)');
  const matches = monitors.filter((m) => m.label === label);
  if (matches.length === 1) return matches[0] as Monitor;
  if (matches.length > 1) {
    throw new UserError(`${matches.length} monitors are labelled ${quote(label)}, so the label does not say which one; rename all but one in the service`, {
      details: matches.map((m) => `  - id ${m.id} (${m.type}${m.ip_address ? `, ${quote(m.ip_address)}` : ''})`),
    });
  }
  const labels = monitors.map((m) => m.label);
  if (labels.length === 0) throw new UserError(`no monitor labelled ${quote(label)}: the account has no monitors`);
  const found = suggestions(label, labels);
  throw new UserError(`no monitor labelled ${quote(label)}${didYouMean(found)}`, {
    details: found.length > 0 ? [] : ['Monitors of the account:', ...knownList(labels)],
  });
}

/** An alert found by a `MONITOR:SUBJECT` reference, with its monitor (not config/resolve.ts's ResolvedAlert, a declared alert). */
export interface FoundAlert {
  monitor: Monitor;
  alert: Alert;
}

/** A usage error unless `ref` has the form MONITOR:SUBJECT (checked before anything is read). */
export function checkAlertRef(ref: string): void {
  if (!ref.includes(':')) {
    throw new UsageError(`--alert ${quote(ref)}: expected MONITOR:SUBJECT, the monitor's label and the alert's trigger subject, e.g. "mx-eu-1:mx-eu-1 is DOWN"`);
  }
}

/**
 * `MONITOR:SUBJECT`, where SUBJECT is the alert's trigger subject (`subject_init`). Labels and
 * subjects may both contain colons, so every split whose left side is an existing label is tried;
 * the reference must name exactly one alert.
 */
export function resolveAlertRef(ref: string, monitors: readonly Monitor[], alerts: readonly Alert[]): FoundAlert {
  const colons: number[] = [];
  for (let i = ref.indexOf(':'); i >= 0; i = ref.indexOf(':', i + 1)) colons.push(i);
  checkAlertRef(ref);
  const byLabel = new Map<string, Monitor[]>();
  for (const m of monitors) byLabel.set(m.label, [...(byLabel.get(m.label) ?? []), m]);

  const splits = colons
    .map((i) => ({ label: ref.slice(0, i), subject: ref.slice(i + 1) }))
    .filter((s) => byLabel.has(s.label));
  if (splits.length === 0) {
    // Report against the shortest reading: the label before the first colon.
    resolveMonitor(ref.slice(0, colons[0]), monitors);
  }

  const hits: FoundAlert[] = [];
  for (const s of splits) {
    const monitor = resolveMonitor(s.label, monitors);
    for (const a of alerts) if (a.monitor === monitor.id && a.subject_init === s.subject) hits.push({ monitor, alert: a });
  }
  if (hits.length === 1) return hits[0] as FoundAlert;
  if (hits.length > 1) {
    throw new UserError(`--alert ${quote(ref)} matches ${hits.length} alerts; the service cannot tell them apart by subject`, {
      details: hits.map((h) => `  - alert id ${h.alert.id} of monitor ${quote(h.monitor.label)} (id ${h.monitor.id})`),
    });
  }

  // No alert with that subject: suggest among the subjects of the monitor(s) the reference names.
  const named = splits.map((s) => resolveMonitor(s.label, monitors));
  const subjects = alerts.filter((a) => named.some((m) => m.id === a.monitor)).map((a) => a.subject_init);
  const first = splits[0] as { label: string; subject: string };
  if (subjects.length === 0) {
    throw new UserError(`monitor ${quote(first.label)} has no alerts, so there is no alert ${quote(first.subject)} to act on`);
  }
  const found = suggestions(first.subject, subjects);
  throw new UserError(`monitor ${quote(first.label)} has no alert with subject ${quote(first.subject)}${didYouMean(found)}`, {
    details: [`Alert subjects of ${quote(first.label)}:`, ...knownList(subjects)],
  });
}
