/**
 * Stage 5a: one view over all files. Picks the single `settings` and `defaults` (reporting
 * conflicting definitions), merges defaults under every monitor and alert, and remembers where
 * each value was written so later checks can point at it, even when it came from a default.
 */
import type { SourceRef } from '../model/desired.js';
import { DEFAULT_OWNER } from '../model/live.js';
import { diag, type Diagnostic } from './diagnostics.js';
import type { PathSegment, Positions } from './locate.js';
import {
  ALERT_DEFAULT_FIELDS,
  SPEC_FIELDS,
  type RawAlert,
  type RawAlertFields,
  type RawFile,
  type RawGroup,
  type RawMonitor,
  type RawMonitorFields,
} from './raw.js';

export interface ValidFile {
  locator: Positions;
  data: RawFile;
}

/** A place in a file: positions are computed only when a message or the state needs them. */
export interface Ref {
  locator: Positions;
  path: PathSegment[];
}

export function valuePos(ref: Ref): SourceRef {
  return { file: ref.locator.file, ...ref.locator.value(ref.path) };
}

export function keyPos(ref: Ref): SourceRef {
  return { file: ref.locator.file, ...ref.locator.key(ref.path) };
}

/** "line 3, column 5" in the same file, "other.yaml:3:5" elsewhere. */
export function describeRef(at: SourceRef, from: string): string {
  return at.file === from ? `line ${at.line}, column ${at.column}` : `${at.file}:${at.line}:${at.column}`;
}

type MergedFields<T> = {
  values: Partial<T>;
  /** Where a merged value was written: the item's own field, or the default's. */
  origin(field: keyof T & string): Ref | undefined;
};

export interface ResolvedAlert {
  raw: RawAlert;
  monitor: string;
  /** Where the monitor label was written: the top-level alert's `monitor`, or the owning monitor's `label`. */
  monitorRef: Ref;
  topLevel: boolean;
  merged: MergedFields<RawAlertFields>;
  ref: Ref;
}

export interface ResolvedMonitor {
  raw: RawMonitor;
  merged: MergedFields<RawMonitorFields>;
  /** Default meta merged with the monitor's, key by key. */
  meta: Record<string, string> | undefined;
  alerts: ResolvedAlert[];
  ref: Ref;
}

export interface ResolvedGroup {
  raw: RawGroup;
  ref: Ref;
}

export interface Resolved {
  files: ValidFile[];
  settings: { owner: string; ignore: string[]; prune: boolean };
  settingsRef: Ref | undefined;
  monitors: ResolvedMonitor[];
  /** Top-level alerts. */
  alerts: ResolvedAlert[];
  groups: ResolvedGroup[];
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The one file defining `key` (identical repeats are allowed); conflicting ones are reported. */
function pickSingle(files: ValidFile[], key: 'settings' | 'defaults', diagnostics: Diagnostic[]): ValidFile | undefined {
  let first: ValidFile | undefined;
  for (const f of files) {
    if (f.data[key] === undefined) continue;
    if (!first) {
      first = f;
      continue;
    }
    if (deepEqual(first.data[key], f.data[key])) continue;
    const here = keyPos({ locator: f.locator, path: [key] });
    const there = keyPos({ locator: first.locator, path: [key] });
    diagnostics.push(
      diag(
        here.file,
        here,
        `${key} is also defined at ${describeRef(there, here.file)} with different values; define ${key} in one file only`,
      ),
    );
  }
  return first;
}

function mergeFields<T extends object>(
  item: T,
  itemPath: PathSegment[],
  defaults: Partial<T> | undefined,
  defaultsRef: Ref | undefined,
  fields: readonly (keyof T & string)[],
  locator: Positions,
): MergedFields<T> {
  const values: Partial<T> = {};
  for (const field of fields) {
    if (item[field] !== undefined) values[field] = item[field];
    else if (defaults?.[field] !== undefined && defaultsRef) values[field] = defaults[field];
  }
  // Computed when asked (one field of thousands of items is): a Ref per merged field adds up.
  const origin = (field: keyof T & string): Ref | undefined => {
    if (item[field] !== undefined) return { locator, path: [...itemPath, field] };
    if (defaults?.[field] !== undefined && defaultsRef) return { locator: defaultsRef.locator, path: [...defaultsRef.path, field] };
    return undefined;
  };
  return { values, origin };
}

function resolveAlert(
  raw: RawAlert,
  path: PathSegment[],
  locator: Positions,
  monitor: string,
  monitorRef: Ref,
  topLevel: boolean,
  defaults: RawAlertFields | undefined,
  defaultsRef: Ref | undefined,
): ResolvedAlert {
  return {
    raw,
    monitor,
    monitorRef,
    topLevel,
    merged: mergeFields<RawAlertFields>(raw, path, defaults, defaultsRef, ALERT_DEFAULT_FIELDS, locator),
    ref: { locator, path },
  };
}

export function resolve(files: ValidFile[]): { resolved: Resolved; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const settingsFile = pickSingle(files, 'settings', diagnostics);
  const defaultsFile = pickSingle(files, 'defaults', diagnostics);
  const rawSettings = settingsFile?.data.settings ?? {};
  const settings = {
    owner: rawSettings.owner ?? DEFAULT_OWNER,
    ignore: [...(rawSettings.ignore ?? [])],
    prune: rawSettings.prune ?? false,
  };
  const monitorDefaults = defaultsFile?.data.defaults?.monitor;
  const alertDefaults = defaultsFile?.data.defaults?.alert;
  const monitorDefaultsRef = defaultsFile && { locator: defaultsFile.locator, path: ['defaults', 'monitor'] };
  const alertDefaultsRef = defaultsFile && { locator: defaultsFile.locator, path: ['defaults', 'alert'] };

  const monitors: ResolvedMonitor[] = [];
  const alerts: ResolvedAlert[] = [];
  const groups: ResolvedGroup[] = [];
  for (const file of files) {
    const { locator, data } = file;
    (data.monitors ?? []).forEach((raw, i) => {
      const path = ['monitors', i];
      const merged = mergeFields<RawMonitorFields>(raw, path, monitorDefaults, monitorDefaultsRef, [...SPEC_FIELDS], locator);
      const meta =
        monitorDefaults?.meta !== undefined || raw.meta !== undefined
          ? { ...(monitorDefaults?.meta ?? {}), ...(raw.meta ?? {}) }
          : undefined;
      const labelRef = { locator, path: [...path, 'label'] };
      monitors.push({
        raw,
        merged,
        meta,
        alerts: (raw.alerts ?? []).map((a, j) =>
          resolveAlert(a, [...path, 'alerts', j], locator, raw.label, labelRef, false, alertDefaults, alertDefaultsRef),
        ),
        ref: { locator, path },
      });
    });
    (data.alerts ?? []).forEach((raw, i) => {
      const path = ['alerts', i];
      // The schema requires `monitor` on top-level alerts.
      const monitor = raw.monitor ?? '';
      alerts.push(resolveAlert(raw, path, locator, monitor, { locator, path: [...path, 'monitor'] }, true, alertDefaults, alertDefaultsRef));
    });
    (data.groups ?? []).forEach((raw, i) => groups.push({ raw, ref: { locator, path: ['groups', i] } }));
  }
  return {
    resolved: {
      files,
      settings,
      settingsRef: settingsFile && { locator: settingsFile.locator, path: ['settings'] },
      monitors,
      alerts,
      groups,
    },
    diagnostics,
  };
}
