/**
 * Stage 5c: the `maintenance:` windows. Checks what the schema cannot say (one timing form per
 * window, cron, duration, dates, end after start, time zone, unique names, overlapping windows of the
 * same monitors; names that match nothing declared are warnings) and builds the state's windows.
 *
 * Overlaps are looked for from `nowMs` over OVERLAP_HORIZON_DAYS (one-off windows against each other
 * exactly, whenever they are), at most OVERLAP_OCCURRENCES occurrences of a window: an overlap further
 * ahead is not seen. Five weeks show every weekly pattern four times and a monthly one at least once;
 * croner takes about 0.3 ms an occurrence here, so a year of an hourly window would cost seconds of
 * every validate. Coverage is judged against the configuration alone (declared monitors, group
 * members, labels of top-level alerts): two windows overlap when they name a common group, the same
 * label or glob, or globs matching a common declared monitor. What the account holds is `maintain`'s.
 */
import type { DesiredMaintenance, SourceRef } from '../model/desired.js';
import { parseDuration } from '../util/duration.js';
import { globMatch } from '../util/glob.js';
import { diag, type Diagnostic } from './diagnostics.js';
import { cronProblem, localToInstant, occurrences, parseLocal, weeklyCron, type Occurrence, type WindowTiming } from './maintenance-time.js';
import { describeRef, valuePos, type Resolved, type ResolvedMaintenance } from './resolve.js';
import { timeZoneProblem } from './timezone.js';

/** How far ahead overlapping occurrences are looked for. */
export const OVERLAP_HORIZON_DAYS = 35;
/** At most this many occurrences of one window are compared (a window every 30 minutes fills five weeks with 1,680). */
export const OVERLAP_OCCURRENCES = 2_000;
/**
 * A window (one-off, or one occurrence of a recurring one) longer than this is warned about
 * (docs/maintenance.md): a month covers any planned works; a longer one is mostly a typo in a
 * year (`end: "2127-..."`), and `maintain` would keep the alerts paused for all of it.
 */
export const LONG_WINDOW_DAYS = 31;

const at = (w: ResolvedMaintenance, ...path: (string | number)[]): SourceRef => valuePos({ locator: w.ref.locator, path: [...w.ref.path, ...path] });

function durationSeconds(text: string): number | undefined {
  try {
    return parseDuration(text, 'duration');
  } catch {
    return undefined;
  }
}

/** The window's timing, when its fields make one (checkMaintenance says what is wrong otherwise). */
export function timingOf(raw: ResolvedMaintenance['raw']): WindowTiming | undefined {
  if (raw.time_zone === undefined || timeZoneProblem(raw.time_zone) !== undefined) return undefined;
  const forms = [raw.cron !== undefined, raw.weekly !== undefined, raw.start !== undefined || raw.end !== undefined].filter(Boolean).length;
  if (forms !== 1) return undefined;
  if (raw.start !== undefined || raw.end !== undefined) {
    if (raw.start === undefined || raw.end === undefined || raw.duration !== undefined) return undefined;
    if (parseLocal(raw.start) === undefined || parseLocal(raw.end) === undefined) return undefined;
    return { kind: 'once', start: raw.start, end: raw.end, time_zone: raw.time_zone };
  }
  const cron = raw.cron ?? weeklyCron(raw.weekly!.days, raw.weekly!.at);
  const seconds = raw.duration === undefined ? undefined : durationSeconds(raw.duration);
  if (seconds === undefined || cronProblem(cron) !== undefined) return undefined;
  return { kind: 'cron', cron, duration_seconds: seconds, time_zone: raw.time_zone };
}

export function buildMaintenance(w: ResolvedMaintenance): DesiredMaintenance {
  const { raw } = w;
  const timing = timingOf(raw);
  const out: DesiredMaintenance = {
    name: raw.name,
    monitors: [...(raw.monitors ?? [])],
    groups: [...(raw.groups ?? [])],
    time_zone: raw.time_zone ?? '',
    source: valuePos(w.ref),
  };
  if (timing?.kind === 'once') {
    out.start = timing.start;
    out.end = timing.end;
  } else if (timing?.kind === 'cron') {
    out.cron = timing.cron;
    out.duration_seconds = timing.duration_seconds;
  }
  return out;
}

/** The timing of a window of the state (built only from windows that passed checkMaintenance). */
export function stateTiming(w: DesiredMaintenance): WindowTiming {
  if (w.cron !== undefined) return { kind: 'cron', cron: w.cron, duration_seconds: w.duration_seconds ?? 0, time_zone: w.time_zone };
  return { kind: 'once', start: w.start ?? '', end: w.end ?? '', time_zone: w.time_zone };
}

function checkTiming(w: ResolvedMaintenance, out: Diagnostic[]): void {
  const { raw } = w;
  const error = (where: SourceRef, message: string) => out.push(diag(where.file, where, message));
  const name = JSON.stringify(raw.name);
  const tzProblem = raw.time_zone === undefined ? 'no time_zone' : timeZoneProblem(raw.time_zone);
  if (raw.time_zone === undefined) error(at(w), `maintenance window ${name} has no time_zone: say which zone its times are in (e.g. time_zone: Europe/London)`);
  else if (tzProblem) error(at(w, 'time_zone'), tzProblem);
  const once = raw.start !== undefined || raw.end !== undefined;
  const given = [raw.cron !== undefined && 'cron', raw.weekly !== undefined && 'weekly', once && 'start/end'].filter(Boolean);
  if (given.length === 0) {
    error(at(w), `maintenance window ${name} says not when: give start and end (one-off), or cron or weekly with duration (recurring)`);
    return;
  }
  if (given.length > 1) {
    error(at(w), `maintenance window ${name} gives ${given.join(' and ')}: give one of them (start and end, cron, or weekly)`);
    return;
  }
  if (once) {
    if (raw.duration !== undefined) error(at(w, 'duration'), `maintenance window ${name} is one-off (start and end): duration is for cron or weekly windows; remove it`);
    if (raw.start === undefined || raw.end === undefined) {
      error(at(w), `maintenance window ${name} gives ${raw.start === undefined ? 'end' : 'start'} without ${raw.start === undefined ? 'start' : 'end'}: a one-off window needs both`);
      return;
    }
    const start = parseLocal(raw.start);
    const end = parseLocal(raw.end);
    if (start === undefined) error(at(w, 'start'), `start ${JSON.stringify(raw.start)} is not a date and time`);
    if (end === undefined) error(at(w, 'end'), `end ${JSON.stringify(raw.end)} is not a date and time`);
    if (start === undefined || end === undefined || tzProblem) return;
    const lasts = localToInstant(end, raw.time_zone!) - localToInstant(start, raw.time_zone!);
    if (lasts <= 0) {
      error(at(w, 'end'), `maintenance window ${name} ends (${raw.end}) before it starts (${raw.start}) in ${raw.time_zone!}: end must be after start`);
    } else if (lasts > LONG_WINDOW_DAYS * 86_400_000) {
      warnLong(w, out, 'end', `maintenance window ${name} lasts ${days(lasts)} (${raw.start} to ${raw.end})`, 'check the year of end');
    }
    return;
  }
  if (raw.cron !== undefined) {
    const problem = cronProblem(raw.cron);
    if (problem) error(at(w, 'cron'), problem);
  }
  if (raw.duration === undefined) {
    error(at(w), `maintenance window ${name} has ${raw.cron !== undefined ? 'cron' : 'weekly'} but no duration: say how long each occurrence lasts (e.g. duration: 2h)`);
    return;
  }
  let seconds: number;
  try {
    seconds = parseDuration(raw.duration, 'duration');
  } catch (err) {
    error(at(w, 'duration'), err instanceof Error ? err.message : String(err));
    return;
  }
  if (seconds * 1000 > LONG_WINDOW_DAYS * 86_400_000) {
    warnLong(w, out, 'duration', `each occurrence of maintenance window ${name} lasts ${days(seconds * 1000)} (duration: ${raw.duration})`, 'check duration');
  }
}

/** `36,484 days`: a long window's length, in whole days. */
function days(ms: number): string {
  const n = Math.round(ms / 86_400_000);
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'day' : 'days'}`;
}

function warnLong(w: ResolvedMaintenance, out: Diagnostic[], field: 'end' | 'duration', what: string, check: string): void {
  const here = at(w, field);
  out.push(
    diag(
      here.file,
      here,
      `${what}: longer than ${LONG_WINDOW_DAYS} days, so maintain would keep its alerts paused for all of it; ${check}, or split planned works into windows of at most ${LONG_WINDOW_DAYS} days`,
      'warning',
    ),
  );
}

/** What a window covers, judged against the configuration (see the module's docblock). */
function coverage(w: ResolvedMaintenance, declared: readonly string[]): { labels: Set<string>; names: Set<string> } {
  const labels = new Set<string>();
  for (const pattern of w.raw.monitors ?? []) for (const l of declared) if (globMatch(pattern, l)) labels.add(l);
  const names = new Set([...(w.raw.monitors ?? []).map((m) => `monitor ${m}`), ...(w.raw.groups ?? []).map((g) => `group ${g}`)]);
  return { labels, names };
}

function firstOverlap(a: readonly Occurrence[], b: readonly Occurrence[]): [Occurrence, Occurrence] | undefined {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x.startMs < y.endMs && y.startMs < x.endMs) return [x, y];
    if (x.endMs <= y.endMs) i++;
    else j++;
  }
  return undefined;
}

const iso = (t: number) => new Date(t).toISOString().replace(/:00\.000Z$/, 'Z');

export function checkMaintenance(r: Resolved, nowMs: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (r.maintenance.length === 0) return out;
  const warn = (where: SourceRef, message: string) => out.push(diag(where.file, where, message, 'warning'));
  const names = new Map<string, ResolvedMaintenance>();
  for (const w of r.maintenance) {
    const first = names.get(w.raw.name);
    if (first) {
      const here = at(w, 'name');
      out.push(diag(here.file, here, `maintenance window name ${JSON.stringify(w.raw.name)} is already defined at ${describeRef(at(first, 'name'), here.file)}`));
    } else names.set(w.raw.name, w);
    if ((w.raw.monitors ?? []).length === 0 && (w.raw.groups ?? []).length === 0) {
      const here = at(w);
      out.push(diag(here.file, here, `maintenance window ${JSON.stringify(w.raw.name)} covers nothing: give monitors (labels or globs) or groups`));
    }
    checkTiming(w, out);
  }

  const declared = [...new Set([...r.monitors.map((m) => m.raw.label), ...r.alerts.map((a) => a.monitor), ...r.groups.flatMap((g) => g.raw.monitors ?? [])])];
  const groupNames = new Set(r.groups.map((g) => g.raw.name));
  // A window's label, glob or group that an ignore glob matches (as text: `mx-legacy-*` by `mx-legacy-*`)
  // names ignored objects only: an error, as every reference to an ignored name is (docs/semantics.md).
  const ignoredBy = (name: string) => r.settings.ignore.find((g) => globMatch(g, name));
  for (const w of r.maintenance) {
    (w.raw.monitors ?? []).forEach((pattern, i) => {
      const glob = ignoredBy(pattern);
      if (glob !== undefined) {
        const here = at(w, 'monitors', i);
        out.push(diag(here.file, here, `${JSON.stringify(pattern)} matches settings.ignore glob ${JSON.stringify(glob)}: monsync never touches ignored monitors, and a pause is a change; remove it from the window or narrow the glob`));
      } else if (!declared.some((l) => globMatch(pattern, l))) {
        warn(at(w, 'monitors', i), `${JSON.stringify(pattern)} matches no monitor declared in the configuration; maintain covers the account's monitors of that label when it runs`);
      }
    });
    (w.raw.groups ?? []).forEach((g, i) => {
      const glob = ignoredBy(g);
      if (glob !== undefined) {
        const here = at(w, 'groups', i);
        out.push(diag(here.file, here, `group ${JSON.stringify(g)} matches settings.ignore glob ${JSON.stringify(glob)}: monsync never touches ignored groups or their monitors; remove it from the window or narrow the glob`));
      } else if (!groupNames.has(g)) warn(at(w, 'groups', i), `group ${JSON.stringify(g)} is not declared in the configuration; maintain covers its members in the account when it runs`);
    });
  }

  // Overlaps: only windows whose timing is sound, each window's occurrences computed once.
  const horizon = nowMs + OVERLAP_HORIZON_DAYS * 86_400_000;
  const sound = r.maintenance
    .map((w) => ({ w, timing: timingOf(w.raw), cover: coverage(w, declared) }))
    .filter((x): x is typeof x & { timing: WindowTiming } => x.timing !== undefined)
    .map((x) => ({ ...x, occ: x.timing.kind === 'once' ? occurrences(x.timing, -8.64e15, 8.64e15) : occurrences(x.timing, nowMs, horizon, OVERLAP_OCCURRENCES) }));
  for (const x of sound) {
    if (x.timing.kind !== 'cron') continue;
    for (let i = 1; i < x.occ.length; i++) {
      if (x.occ[i]!.startMs < x.occ[i - 1]!.endMs) {
        const here = at(x.w, 'duration');
        out.push(diag(here.file, here, `maintenance window ${JSON.stringify(x.w.raw.name)} lasts longer than the time between two of its occurrences (${iso(x.occ[i - 1]!.startMs)} and ${iso(x.occ[i]!.startMs)}): shorten duration or start it less often`));
        break;
      }
    }
  }
  for (let i = 0; i < sound.length; i++) {
    for (let j = i + 1; j < sound.length; j++) {
      const a = sound[i]!;
      const b = sound[j]!;
      const shared = [...a.cover.labels].find((l) => b.cover.labels.has(l)) ?? [...a.cover.names].find((n) => b.cover.names.has(n));
      if (shared === undefined) continue;
      const hit = firstOverlap(a.occ, b.occ);
      if (!hit) continue;
      const here = at(b.w, 'name');
      const what = a.cover.labels.has(shared) ? `monitor ${JSON.stringify(shared)}` : shared;
      out.push(
        diag(
          here.file,
          here,
          `maintenance window ${JSON.stringify(b.w.raw.name)} overlaps ${JSON.stringify(a.w.raw.name)} (${describeRef(at(a.w, 'name'), here.file)}) on ${what}: from ${iso(Math.max(hit[0].startMs, hit[1].startMs))} to ${iso(Math.min(hit[0].endMs, hit[1].endMs))}; windows of the same monitors must not overlap`,
        ),
      );
    }
  }
  return out;
}
