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
  const { line, column } = ref.locator.value(ref.path);
  return { file: ref.locator.file, line, column };
}

export function keyPos(ref: Ref): SourceRef {
  const { line, column } = ref.locator.key(ref.path);
  return { file: ref.locator.file, line, column };
}

/** "line 3, column 5" in the same file, "other.yaml:3:5" elsewhere. */
export function describeRef(at: SourceRef, from: string): string {
  return at.file === from ? `line ${at.line}, column ${at.column}` : `${at.file}:${at.line}:${at.column}`;
}

/**
 * An item's fields with the defaults under them. Where a value came from is worked out when asked
 * (one field of thousands of items is): a Ref, or a closure, per merged item adds up.
 */
class MergedFields<T extends object> {
  readonly values: Partial<T> = {};

  constructor(
    private readonly item: T,
    private readonly itemRef: Ref,
    private readonly defaults: Partial<T> | undefined,
    private readonly defaultsRef: Ref | undefined,
    fields: readonly (keyof T & string)[],
  ) {
    const values = this.values;
    for (const field of fields) {
      if (item[field] !== undefined) values[field] = item[field];
      else if (defaults?.[field] !== undefined && defaultsRef) values[field] = defaults[field];
    }
  }

  /** Where a merged value was written: the item's own field, or the default's. */
  origin(field: keyof T & string): Ref | undefined {
    if (this.item[field] !== undefined) return { locator: this.itemRef.locator, path: [...this.itemRef.path, field] };
    const { defaults, defaultsRef } = this;
    if (defaults?.[field] !== undefined && defaultsRef) return { locator: defaultsRef.locator, path: [...defaultsRef.path, field] };
    return undefined;
  }
}

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
  const ref = { locator, path };
  return {
    raw,
    monitor,
    monitorRef,
    topLevel,
    merged: new MergedFields<RawAlertFields>(raw, ref, defaults, defaultsRef, ALERT_DEFAULT_FIELDS),
    ref,
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
    const fileMonitors = data.monitors ?? [];
    for (let i = 0; i < fileMonitors.length; i++) {
      const raw = fileMonitors[i]!;
      const ref = { locator, path: ['monitors', i] };
      const merged = new MergedFields<RawMonitorFields>(raw, ref, monitorDefaults, monitorDefaultsRef, SPEC_FIELDS);
      const meta =
        monitorDefaults?.meta !== undefined || raw.meta !== undefined
          ? { ...(monitorDefaults?.meta ?? {}), ...(raw.meta ?? {}) }
          : undefined;
      const labelRef = { locator, path: ['monitors', i, 'label'] };
      const rawAlerts = raw.alerts ?? [];
      const monitorAlerts: ResolvedAlert[] = [];
      for (let j = 0; j < rawAlerts.length; j++) {
        const path = ['monitors', i, 'alerts', j];
        monitorAlerts.push(resolveAlert(rawAlerts[j]!, path, locator, raw.label, labelRef, false, alertDefaults, alertDefaultsRef));
      }
      monitors.push({ raw, merged, meta, alerts: monitorAlerts, ref });
    }
    const fileAlerts = data.alerts ?? [];
    for (let i = 0; i < fileAlerts.length; i++) {
      const raw = fileAlerts[i]!;
      // The schema requires `monitor` on top-level alerts.
      const monitor = raw.monitor ?? '';
      const monitorRef = { locator, path: ['alerts', i, 'monitor'] };
      alerts.push(resolveAlert(raw, ['alerts', i], locator, monitor, monitorRef, true, alertDefaults, alertDefaultsRef));
    }
    const fileGroups = data.groups ?? [];
    for (let i = 0; i < fileGroups.length; i++) groups.push({ raw: fileGroups[i]!, ref: { locator, path: ['groups', i] } });
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
