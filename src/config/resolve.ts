/**
 * Stage 5a: one view over all files. Picks the single `settings` and `defaults` (reporting
 * any second definition), merges defaults under every monitor and alert, and remembers where
 * each value was written so later checks can point at it, even when it came from a default.
 * The merged monitors and alerts are built as the state will hold them, once: the checks read
 * them, and build.ts puts them together when nothing was wrong.
 */
import { MONITOR_SPEC_FIELDS, type CheckLevel, type DesiredAlert, type DesiredMonitor, type MonitorSpec, type SourceRef } from '../model/desired.js';
import { DEFAULT_OWNER } from '../model/live.js';
import { pathText } from '../util/safe-text.js';
import { closest } from '../util/suggest.js';
import { diag, type Diagnostic } from './diagnostics.js';
import type { PathSegment, Positions } from './locate.js';
import {
  type RawAlert,
  type RawAlertFields,
  type RawFile,
  type RawGroup,
  type RawMaintenance,
  type RawMonitor,
  type RawMonitorFields,
} from './raw.js';
import { serviceLevelOf } from './slo.js';

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
  return locate(ref.locator, ref.path);
}

/** valuePos without a Ref. */
function locate(locator: Positions, path: readonly PathSegment[]): SourceRef {
  const { line, column } = locator.value(path);
  return { file: locator.file, line, column };
}

export function keyPos(ref: Ref): SourceRef {
  const { line, column } = ref.locator.key(ref.path);
  return { file: ref.locator.file, line, column };
}

/** "line 3, column 5" in the same file, "other.yaml:3:5" elsewhere. */
export function describeRef(at: SourceRef, from: string): string {
  return at.file === from ? `line ${at.line}, column ${at.column}` : `${pathText(at.file)}:${at.line}:${at.column}`;
}

/** A list of the state's own (`[...(list ?? [])]` made two). */
function copyOf<T>(list: readonly T[] | undefined): T[] {
  return list === undefined ? [] : list.slice();
}

/**
 * One kind of default (`defaults.monitor` or `defaults.alert`) and where it was written. A monitor
 * template is one layered over `defaults.monitor`: `values` merged, `own` its fields (at `ref`),
 * `under` the defaults beneath it (where the other fields came from).
 */
interface ItemDefaults<T> {
  values: Partial<T> | undefined;
  ref: Ref | undefined;
  own?: Partial<T>;
  under?: ItemDefaults<T>;
}

/** The item's fields, in the order of `fields`, with the defaults under them. */
function mergeFields<T extends object>(item: T, defaults: ItemDefaults<T>, fields: readonly (keyof T & string)[]): Partial<T> {
  const values: Partial<T> = {};
  const fallback = defaults.ref === undefined ? undefined : defaults.values;
  // Indexed: a first run is mostly unoptimised code, where for-of allocates a result per step.
  // Each value is read once: these reads go through V8's slowest (megamorphic) lookups.
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const own = item[field];
    if (own !== undefined) values[field] = own;
    else if (fallback !== undefined) {
      const fromDefault = fallback[field];
      if (fromDefault !== undefined) values[field] = fromDefault;
    }
  }
  return values;
}

/** Where a merged value was written: the item's own field, or the default's. */
function fieldOrigin<T extends object>(item: T, itemRef: Ref, defaults: ItemDefaults<T>, field: keyof T & string): Ref | undefined {
  if (item[field] !== undefined) return { locator: itemRef.locator, path: [...itemRef.path, field] };
  if (defaults.under !== undefined) {
    if (defaults.own?.[field] !== undefined && defaults.ref) return { locator: defaults.ref.locator, path: [...defaults.ref.path, field] };
    return fieldOrigin({} as T, itemRef, defaults.under, field);
  }
  const { values, ref } = defaults;
  if (values?.[field] !== undefined && ref) return { locator: ref.locator, path: [...ref.path, field] };
  return undefined;
}

/*
 * The resolved items keep their file and index, not Refs: a Ref (and its path) is made when a
 * position is asked for, once for most items, and a configuration has tens of thousands of them.
 */

/*
 * Fields are `declare`d and set in the constructor: a class field of ES2022 is defined on each
 * instance before the constructor runs, one more step per field of 30,000 instances.
 */
/** Which alert set an alert came from, and where a monitor said `alert_set: NAME`. */
export interface AlertSetUse {
  name: string;
  use: Ref;
}

/** The note a message about a template's or alert set's part adds: where it is used, besides where it is written. */
export function usedAtNote(what: string, use: Ref, from: string): string {
  return ` (${what}, used at ${describeRef(valuePos(use), from)})`;
}

export class ResolvedAlert {
  declare readonly raw: RawAlert;
  /** The monitor's label: the top-level alert's `monitor`, or the owning monitor's `label`. */
  declare readonly monitor: string;
  private declare readonly locator: Positions;
  /** The owning monitor's index in its file's `monitors`; -1 for a top-level alert. */
  private declare readonly monitorIndex: number;
  private declare readonly index: number;
  private declare readonly defaults: ItemDefaults<RawAlertFields>;
  /** The alert as the state holds it, defaults.alert merged (its timeout null only on a top-level alert or with an error). */
  declare readonly desired: DesiredAlert;
  /** An alert of an alert set: where the set's alert is written (`locator` is that file) and the monitor that uses it. */
  declare readonly fromSet: AlertSetUse | undefined;

  constructor(
    raw: RawAlert,
    monitor: string,
    locator: Positions,
    monitorIndex: number,
    index: number,
    defaults: ItemDefaults<RawAlertFields>,
    fromSet?: AlertSetUse,
  ) {
    this.raw = raw;
    this.monitor = monitor;
    this.locator = locator;
    this.monitorIndex = monitorIndex;
    this.index = index;
    this.defaults = defaults;
    this.fromSet = fromSet;
    // The fields of ALERT_BODY_FIELDS one by one: the state's order of keys, and no object of
    // merged values per alert in between.
    const d = defaults.ref === undefined ? undefined : defaults.values;
    const message_init = raw.message_init !== undefined ? raw.message_init : d?.message_init;
    const message_term = raw.message_term !== undefined ? raw.message_term : d?.message_term;
    const down_only = raw.down_only !== undefined ? raw.down_only : d?.down_only;
    const repeat = raw.repeat !== undefined ? raw.repeat : d?.repeat;
    const alert: DesiredAlert = {
      monitor,
      subject_init: raw.subject_init,
      subject_term: raw.subject_term,
      // checkSemantics reports an alert under `monitors:` without a timeout (no state is then
      // returned); a top-level one may lack it, and plan checks it against its monitor's type.
      timeout: raw.timeout !== undefined ? raw.timeout : (d?.timeout ?? null),
      alert_destinations: copyOf(raw.alert_destinations !== undefined ? raw.alert_destinations : d?.alert_destinations),
      previous_subjects: copyOf(raw.previous_subjects),
      source: locate(locator, this.path()),
    };
    if (message_init !== undefined) alert.message_init = message_init;
    if (message_term !== undefined) alert.message_term = message_term;
    if (down_only !== undefined) alert.down_only = down_only;
    if (repeat !== undefined) alert.repeat = repeat;
    if (raw.disable_checks !== undefined) alert.disable_checks = raw.disable_checks.slice();
    this.desired = alert;
  }

  get topLevel(): boolean {
    return this.monitorIndex < 0;
  }

  get ref(): Ref {
    return { locator: this.locator, path: this.path() };
  }

  private path(): PathSegment[] {
    if (this.fromSet) return ['templates', 'alert_sets', this.fromSet.name, this.index];
    return this.topLevel ? ['alerts', this.index] : ['monitors', this.monitorIndex, 'alerts', this.index];
  }

  /** Where a merged field was written: the alert's own, or the `defaults.alert` one it took. */
  origin(field: keyof RawAlertFields & string): Ref | undefined {
    return fieldOrigin(this.raw, this.ref, this.defaults, field);
  }

  /** Where the monitor label was written: the top-level alert's `monitor`, or the owning monitor's `label`. */
  get monitorRef(): Ref {
    if (this.fromSet) return { locator: this.fromSet.use.locator, path: [...this.fromSet.use.path.slice(0, -1), 'label'] };
    const path = this.topLevel ? ['alerts', this.index, 'monitor'] : ['monitors', this.monitorIndex, 'label'];
    return { locator: this.locator, path };
  }
}

export class ResolvedMonitor {
  declare readonly raw: RawMonitor;
  private declare readonly locator: Positions;
  private declare readonly index: number;
  private declare readonly defaults: ItemDefaults<RawMonitorFields>;
  /** The merged fields: the desired spec, in MONITOR_SPEC_FIELDS order, with the merged meta last. */
  declare readonly values: Partial<RawMonitorFields>;
  declare readonly alerts: ResolvedAlert[];
  /** The monitor as the state holds it, defaults.monitor merged (required fields missing only with an error). */
  declare readonly desired: DesiredMonitor;

  /** The monitor template it took its fields from (`template: NAME`), when found. */
  declare readonly template: string | undefined;

  constructor(
    raw: RawMonitor,
    locator: Positions,
    index: number,
    defaults: ItemDefaults<RawMonitorFields>,
    alertDefaults: ItemDefaults<RawAlertFields>,
    shared?: { template?: ItemDefaults<RawMonitorFields>; alertSet?: { name: string; locator: Positions; alerts: RawAlert[] } },
  ) {
    this.raw = raw;
    this.locator = locator;
    this.index = index;
    this.template = shared?.template ? raw.template : undefined;
    if (shared?.template) defaults = layered(shared.template, defaults);
    this.defaults = defaults;
    const spec = mergeFields(raw, defaults, MONITOR_SPEC_FIELDS);
    // Default meta merged with the monitor's, key by key.
    const defaultMeta = defaults.values?.meta;
    if (defaultMeta === undefined) {
      if (raw.meta !== undefined) spec.meta = { ...raw.meta };
    } else spec.meta = { ...defaultMeta, ...(raw.meta ?? {}) };
    this.values = spec;
    // map, not push: a list grown by push keeps room for 16 or more alerts.
    const alerts = (raw.alerts ?? []).map((a, j) => new ResolvedAlert(a, raw.label, locator, index, j, alertDefaults));
    const set = shared?.alertSet;
    if (set) {
      const use = { name: set.name, use: { locator, path: ['monitors', index, 'alert_set'] } };
      for (let j = 0; j < set.alerts.length; j++) alerts.push(new ResolvedAlert(set.alerts[j]!, raw.label, set.locator, index, j, alertDefaults, use));
    }
    this.alerts = alerts;
    this.desired = {
      label: raw.label,
      previous_labels: copyOf(raw.previous_labels),
      // checkSemantics reports a monitor without one of the four required fields, and then no state is returned.
      spec: spec as MonitorSpec,
      alerts: alerts.map((a) => a.desired),
      source: locate(locator, ['monitors', index]),
    };
    if (raw.disable_checks !== undefined) this.desired.disable_checks = raw.disable_checks.slice();
    // Inherited whole, like a field (the monitor's own, even `null`, wins); never part of the spec.
    const slo = serviceLevelOf(raw.slo !== undefined ? raw.slo : defaults.ref === undefined ? undefined : defaults.values?.slo);
    if (slo !== undefined) this.desired.slo = slo;
  }

  get ref(): Ref {
    return { locator: this.locator, path: ['monitors', this.index] };
  }

  origin(field: keyof RawMonitorFields & string): Ref | undefined {
    return fieldOrigin(this.raw, this.ref, this.defaults, field);
  }
}

/** A template over the defaults: its fields first, then the defaults' (meta merged key by key). */
function layered(template: ItemDefaults<RawMonitorFields>, under: ItemDefaults<RawMonitorFields>): ItemDefaults<RawMonitorFields> {
  const base = under.ref === undefined ? undefined : under.values;
  const own = template.values ?? {};
  const values: Partial<RawMonitorFields> = { ...(base ?? {}), ...own };
  if (base?.meta !== undefined || own.meta !== undefined) values.meta = { ...(base?.meta ?? {}), ...(own.meta ?? {}) };
  return { values, ref: template.ref, own, under };
}

export interface ResolvedGroup {
  raw: RawGroup;
  ref: Ref;
}

export interface ResolvedMaintenance {
  raw: RawMaintenance;
  ref: Ref;
}

export interface Resolved {
  files: ValidFile[];
  settings: { owner: string; ignore: string[]; prune: boolean; checks?: Record<string, CheckLevel>; allowed_secret_variables?: string[] };
  settingsRef: Ref | undefined;
  monitors: ResolvedMonitor[];
  /** Top-level alerts. */
  alerts: ResolvedAlert[];
  groups: ResolvedGroup[];
  maintenance: ResolvedMaintenance[];
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

/**
 * The one file defining `key`; every other file defining it is reported, a copy with the same
 * values too (the schema: "May appear in at most one file"): copies drift apart as soon as one is
 * edited. Returns the first file and the others whose values differ from it.
 */
function pickSingle(files: ValidFile[], key: 'settings' | 'defaults', diagnostics: Diagnostic[]): { file?: ValidFile; differing: ValidFile[] } {
  let first: ValidFile | undefined;
  const differing: ValidFile[] = [];
  for (const f of files) {
    if (f.data[key] === undefined) continue;
    if (!first) {
      first = f;
      continue;
    }
    const same = deepEqual(first.data[key], f.data[key]);
    if (!same) differing.push(f);
    const here = keyPos({ locator: f.locator, path: [key] });
    const there = describeRef(keyPos({ locator: first.locator, path: [key] }), here.file);
    diagnostics.push(
      diag(
        here.file,
        here,
        same
          ? `${key} is also defined at ${there} (the same values); define ${key} in one file only: remove this copy`
          : `${key} is also defined at ${there} with different values; define ${key} in one file only`,
      ),
    );
  }
  return { file: first, differing };
}

/** A file's `defaults.monitor` and `defaults.alert` with where they were written. */
function defaultsOf(file: ValidFile | undefined): { monitor: ItemDefaults<RawMonitorFields>; alert: ItemDefaults<RawAlertFields> } {
  return {
    monitor: { values: file?.data.defaults?.monitor, ref: file && { locator: file.locator, path: ['defaults', 'monitor'] } },
    alert: { values: file?.data.defaults?.alert, ref: file && { locator: file.locator, path: ['defaults', 'alert'] } },
  };
}

interface Defined<T> {
  values: T;
  ref: Ref;
}

/**
 * Every file's `templates`, by kind and name. A name defined twice is reported at the second
 * definition, naming the first: which one a monitor meant cannot be told.
 */
function collectTemplates(files: readonly ValidFile[], diagnostics: Diagnostic[]): { monitorTemplates: Map<string, Defined<RawMonitorFields>>; alertSets: Map<string, Defined<RawAlert[]>> } {
  const monitorTemplates = new Map<string, Defined<RawMonitorFields>>();
  const alertSets = new Map<string, Defined<RawAlert[]>>();
  const add = <T>(into: Map<string, Defined<T>>, what: string, kind: 'monitors' | 'alert_sets', file: ValidFile, entries: Record<string, T> | undefined) => {
    for (const [name, values] of Object.entries(entries ?? {})) {
      const ref: Ref = { locator: file.locator, path: ['templates', kind, name] };
      const first = into.get(name);
      if (first) {
        const here = keyPos(ref);
        diagnostics.push(diag(here.file, here, `${what} ${JSON.stringify(name)} is already defined at ${describeRef(keyPos(first.ref), here.file)}; define each name once`));
      } else into.set(name, { values, ref });
    }
  };
  for (const file of files) {
    const t = file.data.templates;
    if (t === undefined) continue;
    add(monitorTemplates, 'monitor template', 'monitors', file, t.monitors);
    add(alertSets, 'alert set', 'alert_sets', file, t.alert_sets);
  }
  return { monitorTemplates, alertSets };
}

/** The template a monitor names, or a problem at the name (with the closest defined one). */
function found<T>(what: string, where: string, defined: Map<string, Defined<T>>, name: string, use: Ref, diagnostics: Diagnostic[]): Defined<T> | undefined {
  const hit = defined.get(name);
  if (hit) return hit;
  const at = valuePos(use);
  const near = closest(name, [...defined.keys()]);
  const known = defined.size === 0 ? `no file defines ${where}` : `${where} defines ${[...defined.keys()].slice(0, 10).map((n) => JSON.stringify(n)).join(', ')}`;
  diagnostics.push(diag(at.file, at, `no ${what} named ${JSON.stringify(name)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; ${known}`));
  return undefined;
}

/** What a file without monitors, alerts, groups or windows has of them: one empty list, not three new ones per file. */
const NONE: readonly never[] = [];

export function resolve(files: ValidFile[]): { resolved: Resolved; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const settingsFile = pickSingle(files, 'settings', diagnostics).file;
  const picked = pickSingle(files, 'defaults', diagnostics);
  const rawSettings = settingsFile?.data.settings ?? {};
  const settings: Resolved['settings'] = {
    owner: rawSettings.owner ?? DEFAULT_OWNER,
    ignore: [...(rawSettings.ignore ?? [])],
    prune: rawSettings.prune ?? false,
  };
  if (rawSettings.checks !== undefined) settings.checks = { ...rawSettings.checks };
  if (rawSettings.allowed_secret_variables !== undefined) settings.allowed_secret_variables = [...rawSettings.allowed_secret_variables];
  const shared = defaultsOf(picked.file);

  const { monitorTemplates, alertSets } = collectTemplates(files, diagnostics);

  const monitors: ResolvedMonitor[] = [];
  const alerts: ResolvedAlert[] = [];
  const groups: ResolvedGroup[] = [];
  const maintenance: ResolvedMaintenance[] = [];
  for (const file of files) {
    const { locator, data } = file;
    // A file whose defaults conflict (an error already) has its items checked under its own
    // defaults: what is wrong with them shows now, not only once the conflict is resolved.
    const { monitor: monitorDefaults, alert: alertDefaults } = picked.differing.includes(file) ? defaultsOf(file) : shared;
    const fileMonitors = data.monitors ?? NONE;
    for (let i = 0; i < fileMonitors.length; i++) {
      const raw = fileMonitors[i]!;
      if (raw.template === undefined && raw.alert_set === undefined) {
        monitors.push(new ResolvedMonitor(raw, locator, i, monitorDefaults, alertDefaults));
        continue;
      }
      const template = raw.template === undefined ? undefined : found('monitor template', 'templates.monitors', monitorTemplates, raw.template, { locator, path: ['monitors', i, 'template'] }, diagnostics);
      const set = raw.alert_set === undefined ? undefined : found('alert set', 'templates.alert_sets', alertSets, raw.alert_set, { locator, path: ['monitors', i, 'alert_set'] }, diagnostics);
      monitors.push(
        new ResolvedMonitor(raw, locator, i, monitorDefaults, alertDefaults, {
          ...(template ? { template: { values: template.values, ref: template.ref } } : {}),
          ...(set ? { alertSet: { name: raw.alert_set!, locator: set.ref.locator, alerts: set.values } } : {}),
        }),
      );
    }
    const fileAlerts = data.alerts ?? NONE;
    for (let i = 0; i < fileAlerts.length; i++) {
      const raw = fileAlerts[i]!;
      // The schema requires `monitor` on top-level alerts.
      alerts.push(new ResolvedAlert(raw, raw.monitor ?? '', locator, -1, i, alertDefaults));
    }
    const fileGroups = data.groups ?? NONE;
    for (let i = 0; i < fileGroups.length; i++) groups.push({ raw: fileGroups[i]!, ref: { locator, path: ['groups', i] } });
    const fileWindows = data.maintenance ?? NONE;
    for (let i = 0; i < fileWindows.length; i++) maintenance.push({ raw: fileWindows[i]!, ref: { locator, path: ['maintenance', i] } });
  }
  return {
    resolved: {
      files,
      settings,
      settingsRef: settingsFile && { locator: settingsFile.locator, path: ['settings'] },
      monitors,
      alerts,
      groups,
      maintenance,
    },
    diagnostics,
  };
}
