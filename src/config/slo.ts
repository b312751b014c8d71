/**
 * Service-level objectives (`slo:`, model/fields.ts SLO_FIELD): what their values mean and which
 * ones are refused. The schema says only the shape (a mapping of `objective`, `window` and an
 * optional `round_trip`); the values are judged here, each problem at its file:line:column:
 * `objective` a percentage (`99.5%`) or ratio (`0.995`) in (0, 100%), `window` and `round_trip`
 * positive durations (util/duration.ts, as `maintenance` durations and `--since`).
 *
 * `checkServiceLevels` looks at every place one is written (defaults.monitor, templates.monitors,
 * monitors[], groups[]) once, so a bad default is told once, where it is written, not once per
 * monitor it applies to. `serviceLevelOf` reads one a check accepted; both are pure.
 */
import type { RawServiceLevel, ServiceLevel } from '../model/fields.js';
import { DurationError, parseDuration } from '../util/duration.js';
import { diag, show, type Diagnostic } from './diagnostics.js';
import type { PathSegment, Positions } from './positions.js';
import type { RawFile } from './raw.js';

const PERCENT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;
const RATIO = /^\s*(\d*\.\d+|\d+)\s*$/;
const EXAMPLES = 'a percentage such as "99.5%" or a ratio such as 0.995';

/** Rounded so that `99.9%` is 0.999, not 0.9990000000000001. */
const tidy = (n: number): number => Number(n.toPrecision(12));

/** The ratio `objective` means, or what is wrong with it. */
export function objectiveOf(value: unknown): { ratio: number } | { problem: string } {
  let ratio: number | undefined;
  if (typeof value === 'number') ratio = value;
  else if (typeof value === 'string') {
    const pct = PERCENT.exec(value);
    if (pct) {
      const n = tidy(Number(pct[1]) / 100);
      if (n <= 0 || n >= 1) return { problem: `objective must be above 0% and below 100% (got ${show(value)}): an objective of 100% allows no failed test at all` };
      return { ratio: n };
    }
    const plain = RATIO.exec(value);
    if (plain) ratio = Number(plain[1]);
  }
  if (ratio === undefined || !Number.isFinite(ratio)) return { problem: `objective must be ${EXAMPLES} (got ${show(value)})` };
  if (ratio > 1 && ratio < 100) return { problem: `objective ${show(value)} is a ratio above 1; write ${JSON.stringify(`${ratio}%`)} for a percentage` };
  if (ratio <= 0 || ratio >= 1) return { problem: `objective must be a ratio above 0 and below 1, or ${EXAMPLES.split(' or ')[0]} (got ${show(value)})` };
  return { ratio: tidy(ratio) };
}

/** Seconds of a positive duration field (`window`, `round_trip`), or what is wrong with it. */
export function durationOf(value: unknown, field: string): { seconds: number } | { problem: string } {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value > 0) return { seconds: value };
    return { problem: `${field} must be a positive duration such as "30d" or "30s" (got ${show(value)})` };
  }
  if (typeof value !== 'string') return { problem: `${field} must be a duration such as "30d" or "30s" (got ${show(value)})` };
  try {
    return { seconds: parseDuration(value, field) };
  } catch (err) {
    if (err instanceof DurationError) return { problem: err.message };
    throw err;
  }
}

/** Each problem of one written `slo`, by the key it is at. */
export function serviceLevelProblems(raw: RawServiceLevel): { key: keyof RawServiceLevel; message: string }[] {
  const out: { key: keyof RawServiceLevel; message: string }[] = [];
  const objective = objectiveOf(raw.objective);
  if ('problem' in objective) out.push({ key: 'objective', message: objective.problem });
  const window = durationOf(raw.window, 'window');
  if ('problem' in window) out.push({ key: 'window', message: window.problem });
  if (raw.round_trip !== undefined) {
    const bound = durationOf(raw.round_trip, 'round_trip');
    if ('problem' in bound) out.push({ key: 'round_trip', message: bound.problem });
  }
  return out;
}

/**
 * Objectives read, by the written mapping: one in `defaults.monitor` or a template is read once, not
 * once for each of the thousands of monitors that take it (each monitor gets its own copy).
 */
const read = new WeakMap<RawServiceLevel, ServiceLevel | undefined>();

/** The objective a written `slo` declares; undefined for `null` (none) or one with a problem (reported by checkServiceLevels). */
export function serviceLevelOf(raw: RawServiceLevel | null | undefined): ServiceLevel | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!read.has(raw)) read.set(raw, readServiceLevel(raw));
  const level = read.get(raw);
  return level === undefined ? undefined : { ...level };
}

function readServiceLevel(raw: RawServiceLevel): ServiceLevel | undefined {
  const objective = objectiveOf(raw.objective);
  const window = durationOf(raw.window, 'window');
  if ('problem' in objective || 'problem' in window) return undefined;
  const level: ServiceLevel = { objective: objective.ratio, window_seconds: window.seconds };
  if (raw.round_trip !== undefined) {
    const bound = durationOf(raw.round_trip, 'round_trip');
    if ('problem' in bound) return undefined;
    level.round_trip_seconds = bound.seconds;
  }
  return level;
}

/** Every `slo` of every file checked where it is written. */
export function checkServiceLevels(files: readonly { locator: Positions; data: RawFile }[], out: Diagnostic[]): void {
  for (const { locator, data } of files) {
    const check = (raw: RawServiceLevel | null | undefined, path: PathSegment[]): void => {
      if (raw === null || raw === undefined) return;
      for (const p of serviceLevelProblems(raw)) {
        const at = locator.value([...path, 'slo', p.key]);
        out.push(diag(locator.file, at, p.message));
      }
    };
    check(data.defaults?.monitor?.slo, ['defaults', 'monitor']);
    for (const [name, t] of Object.entries(data.templates?.monitors ?? {})) check(t.slo, ['templates', 'monitors', name]);
    const monitors = data.monitors ?? [];
    // Indexed: thousands of monitors, most without an objective of their own.
    for (let i = 0; i < monitors.length; i++) if (monitors[i]!.slo != null) check(monitors[i]!.slo, ['monitors', i]);
    const groups = data.groups ?? [];
    for (let i = 0; i < groups.length; i++) check(groups[i]!.slo, ['groups', i]);
  }
}
