/**
 * From the live account to the documents of a monsync configuration: which monitors, alerts and
 * groups are exported, their fields with documented defaults left out, and the values every
 * monitor / alert shares factored into `defaults`. Pure: no I/O, no clock, so the same account
 * always gives the same documents.
 */
import { ALERT_BODY_FIELDS, REQUIRED_MONITOR_FIELDS } from '../model/desired.js';
import { ALERT_FIELD_DEFAULTS, ALERT_FIELD_NAMES, MONITOR_FACTORABLE_FIELDS, MONITOR_FIELD_DEFAULTS } from '../model/fields.js';
import type { Alert, LiveState, Monitor } from '../model/live.js';
import { ALLOWED_TIMERS, ALLOWED_TTLS, OWNER_META_KEY } from '../model/live.js';
import { globMatch } from '../util/glob.js';
import { groupBy } from '../util/group-by.js';
import { plural } from '../util/plural.js';

/** A refusal to export: the output could not be planned (e.g. two monitors share a label). */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  constructor(
    message: string,
    readonly problems: string[],
  ) {
    super(message);
  }
}

export type Fields = Record<string, unknown>;

export interface ExportedAlert {
  id: string;
  monitorId: string;
  monitorLabel: string;
  /** Canonical values, documented defaults included (they are left out when written). */
  values: Fields;
}

export interface ExportedMonitor {
  id: string;
  label: string;
  /** Per-monitor identity fields, always written. */
  ip_address: string;
  test_account: string;
  /** Canonical values of the factorable fields, documented defaults included. */
  values: Fields;
  meta: Record<string, string>;
  alerts: ExportedAlert[];
}

export interface ExportedGroup {
  id: string;
  name: string;
  /** Member labels, sorted. */
  members: string[];
  /** Ids of the members, to place monitors into per-group files. */
  memberIds: Set<string>;
}

export interface ExportModel {
  owner: string;
  monitors: ExportedMonitor[];
  /** Alerts on monitors of other types (top-level `alerts:`). */
  alerts: ExportedAlert[];
  groups: ExportedGroup[];
  defaults: { monitor: Fields; alert: Fields };
  warnings: string[];
}

/**
 * Monitor fields, in the order export writes them, that can move into `defaults.monitor`: every row
 * of MONITOR_FIELD_TABLE (model/fields.ts) but those written on each monitor (`ip_address`,
 * `test_account`), in the table's export order.
 */
export const MONITOR_FACTORABLE = MONITOR_FACTORABLE_FIELDS;

/** Alert fields, in the order they are written, that can move into `defaults.alert`. */
export const ALERT_FACTORABLE = ALERT_BODY_FIELDS;

/**
 * What an omitted field means: the API's documented create defaults for monitors; for alerts the
 * values the service treats as "nothing" (no destinations, empty texts, flags off). Fields without
 * one (the required ones) are not keys.
 */
const MONITOR_DEFAULTS: Fields = MONITOR_FIELD_DEFAULTS;

const ALERT_DEFAULTS: Fields = ALERT_FIELD_DEFAULTS;

export interface BuildOptions {
  match?: readonly string[];
  owner: string;
}

/** Code-point order: the same in every locale, so output bytes never depend on the machine. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function isDefault(field: string, value: unknown, defaults: Fields): boolean {
  return field in defaults && sameValue(value, defaults[field]);
}

/** What the steps of an export share: the account, its indexes, and the warning and problem sinks. */
interface BuildCtx {
  readonly live: LiveState;
  readonly owner: string;
  readonly warnings: string[];
  /** Conflicts a plan could not resolve: any of them refuses the export. */
  readonly problems: string[];
  readonly match: Matcher;
  readonly byId: Map<string, Monitor>;
  readonly labelCount: Map<string, number>;
  /** All monitors (every type and owner) by label. */
  readonly byLabel: Map<string, Monitor[]>;
}

/** The --match globs, remembering those that matched something. */
interface Matcher {
  readonly used: Set<string>;
  /** True when there are no globs or one matches `text`. */
  readonly matches: (text: string) => boolean;
}

function matcher(match: readonly string[]): Matcher {
  // The dialect of --target and settings.ignore, so one glob means the same everywhere.
  const globs = match.map((g) => ({ glob: g, test: (text: string) => globMatch(g, text) }));
  const used = new Set<string>();
  const matches = (text: string) => {
    if (globs.length === 0) return true;
    let hit = false;
    for (const g of globs) {
      if (g.test(text)) {
        used.add(g.glob);
        hit = true;
      }
    }
    return hit;
  };
  return { used, matches };
}

export function buildExport(live: LiveState, opts: BuildOptions): ExportModel {
  const cx: BuildCtx = {
    live,
    owner: opts.owner,
    warnings: [],
    problems: [],
    match: matcher(opts.match ?? []),
    byId: new Map(live.monitors.map((m) => [m.id, m])),
    labelCount: countBy(live.monitors.map((m) => m.label)),
    byLabel: groupBy(live.monitors, (m) => m.label),
  };
  const destinations = destinationIndex(live);
  const selected = selectMonitors(cx);
  const selectedIds = new Set(selected.map((m) => m.id));
  const conflicting = sharedLabelConflicts(cx, selected);
  warnOwnedNotExported(cx, selectedIds);
  const { nested, topLevel } = collectAlerts(cx, destinations, selectedIds);
  duplicateSubjects(cx, nested, topLevel);
  const groups = collectGroups(cx, conflicting);
  if (cx.problems.length > 0) {
    const unique = [...new Set(cx.problems)].sort(cmp);
    throw new ExportError(
      `cannot export: ${plural(unique.length, 'conflict')} a plan could not resolve; rename or delete all but one of each in the service (or narrow with --match)`,
      unique,
    );
  }
  return assemble(cx, opts, selected, nested, topLevel, groups);
}

/** Which SMTP monitors are exported; warns about those left out or written with undeclarable values. */
function selectMonitors(cx: BuildCtx): Monitor[] {
  const { warnings, owner } = cx;
  const selected: Monitor[] = [];
  for (const m of cx.live.monitors) {
    if (m.type !== 'smtp' || !cx.match.matches(m.label)) continue;
    const marker = m.meta[OWNER_META_KEY];
    if (marker !== undefined && marker !== owner) {
      warnings.push(
        `monitor "${m.label}" (id ${m.id}) is managed by "${marker}" (meta ${OWNER_META_KEY}), not "${owner}": left out (monsync export --owner ${marker} exports that configuration)`,
      );
      continue;
    }
    const missing = REQUIRED_MONITOR_FIELDS.filter((f) => m[f] === null || m[f] === '');
    if (missing.length > 0) {
      warnings.push(`monitor "${m.label}" (id ${m.id}) has no ${missing.join(', ')} in the account: left out, it could not be declared`);
      continue;
    }
    if (m.timer !== null && !(ALLOWED_TIMERS as readonly number[]).includes(m.timer)) {
      warnings.push(`monitor "${m.label}" (id ${m.id}) runs every ${m.timer} minutes, which cannot be declared (${ALLOWED_TIMERS.join(', ')}): written as is, change it before planning`);
    }
    if (m.ttl !== null && !(ALLOWED_TTLS as readonly number[]).includes(m.ttl)) {
      warnings.push(`monitor "${m.label}" (id ${m.id}) has ttl ${m.ttl}, which cannot be declared (${ALLOWED_TTLS.join(', ')}): written as is, change it before planning`);
    }
    selected.push(m);
  }
  return selected;
}

/**
 * The plan identifies monitors by label across all types and owners: a shared label cannot be
 * declared. Reports each selected shared label once; returns them.
 */
function sharedLabelConflicts(cx: BuildCtx, selected: readonly Monitor[]): Set<string> {
  const conflicting = new Set<string>();
  for (const m of selected) {
    const same = cx.byLabel.get(m.label) ?? [];
    if (same.length < 2 || conflicting.has(m.label)) continue;
    conflicting.add(m.label);
    const list = [...same].sort((x, y) => cmp(x.id, y.id)).map((o) => (o.type === 'smtp' ? o.id : `${o.id} (${o.type})`));
    cx.problems.push(`label "${m.label}" is shared by the monitors with ids ${list.join(', ')}`);
  }
  return conflicting;
}

/** A monitor marked with this owner but not exported would be deleted by a plan of the export. */
function warnOwnedNotExported(cx: BuildCtx, selectedIds: ReadonlySet<string>): void {
  for (const m of cx.live.monitors) {
    if (m.type === 'smtp' && m.meta[OWNER_META_KEY] === cx.owner && !selectedIds.has(m.id)) {
      cx.warnings.push(
        `monitor "${m.label}" (id ${m.id}) is marked ${OWNER_META_KEY}: ${cx.owner} but not exported: a plan of this export would delete it`,
      );
    }
  }
}

/** Destinations are written by label, so a label must name exactly one destination. */
interface DestinationIndex {
  readonly labels: Map<string, string>;
  readonly idsByLabel: Map<string, string[]>;
}

function destinationIndex(live: LiveState): DestinationIndex {
  const labels = new Map<string, string>();
  const idsByLabel = new Map<string, string[]>();
  for (const d of live.destinations) {
    labels.set(d.id, d.label);
    idsByLabel.set(d.label, [...(idsByLabel.get(d.label) ?? []), d.id]);
  }
  return { labels, idsByLabel };
}

function destinationsOf(cx: BuildCtx, dest: DestinationIndex, a: Alert, where: string): string[] {
  const labels: string[] = [];
  for (const id of a.alert_destinations) {
    const label = dest.labels.get(id);
    if (label === undefined) {
      cx.warnings.push(`alert ${where} (id ${a.id}): destination id ${id} has no known label: left out of alert_destinations`);
      continue;
    }
    const ids = dest.idsByLabel.get(label) ?? [];
    if (ids.length > 1) {
      cx.warnings.push(
        `alert ${where} (id ${a.id}): destination label "${label}" names ${ids.length} destinations (ids ${[...ids].sort(cmp).join(', ')}): left out of alert_destinations`,
      );
      continue;
    }
    labels.push(label);
  }
  return [...new Set(labels)].sort(cmp);
}

/** Canonical values of an alert's fields, in the table's order: what the service left null means the default. */
function alertValues(cx: BuildCtx, dest: DestinationIndex, a: Alert, where: string): Fields {
  const v: Fields = {};
  for (const f of ALERT_FIELD_NAMES) {
    v[f] = f === 'alert_destinations' ? destinationsOf(cx, dest, a, where) : (a[f] ?? ALERT_DEFAULTS[f] ?? null);
  }
  return v;
}

/** Alerts: nested under exported SMTP monitors (by monitor id), top level for monitors of other types. */
function collectAlerts(
  cx: BuildCtx,
  dest: DestinationIndex,
  selectedIds: ReadonlySet<string>,
): { nested: Map<string, ExportedAlert[]>; topLevel: ExportedAlert[] } {
  const { warnings, labelCount } = cx;
  const nested = new Map<string, ExportedAlert[]>();
  const topLevel: ExportedAlert[] = [];
  for (const a of cx.live.alerts) {
    const m = cx.byId.get(a.monitor);
    if (!m) {
      warnings.push(`alert "${a.subject_init}" (id ${a.id}) is on monitor id ${a.monitor}, which the account did not list: left out`);
      continue;
    }
    const where = `"${a.subject_init}" on "${m.label}"`;
    if (selectedIds.has(m.id)) {
      if (a.type !== 'up-down') {
        warnings.push(`alert ${where} (id ${a.id}) is of type "${a.type}", which monsync cannot declare: left out`);
        continue;
      }
      if (a.timeout === null) {
        warnings.push(`alert ${where} (id ${a.id}) has no timeout in the account: written without one; add one (validate asks for it)`);
      }
      const list = nested.get(m.id) ?? [];
      list.push({ id: a.id, monitorId: m.id, monitorLabel: m.label, values: alertValues(cx, dest, a, where) });
      nested.set(m.id, list);
    } else if (m.type !== 'smtp' && cx.match.matches(m.label)) {
      if (a.type !== 'up-down') {
        warnings.push(`alert ${where} (id ${a.id}) is of type "${a.type}", which monsync cannot declare: left out`);
        continue;
      }
      if ((labelCount.get(m.label) ?? 0) > 1) {
        warnings.push(`alert ${where} (id ${a.id}): the label "${m.label}" names ${labelCount.get(m.label)} monitors, so the alert cannot be declared by it: left out`);
        continue;
      }
      if (a.timeout === null) {
        warnings.push(`alert ${where} (id ${a.id}) has no timeout in the account; declaring it would set one: left out`);
        continue;
      }
      topLevel.push({ id: a.id, monitorId: m.id, monitorLabel: m.label, values: alertValues(cx, dest, a, where) });
    }
  }
  return { nested, topLevel };
}

/** Two alerts on one monitor with one subject cannot be told apart by a plan. */
function duplicateSubjects(cx: BuildCtx, nested: ReadonlyMap<string, ExportedAlert[]>, topLevel: readonly ExportedAlert[]): void {
  const alertKey = (a: ExportedAlert, subject: string) => `${a.monitorId}\u0000${subject}`;
  const subjects = new Map<string, ExportedAlert[]>();
  for (const a of [...[...nested.values()].flat(), ...topLevel]) {
    const key = alertKey(a, String(a.values.subject_init));
    subjects.set(key, [...(subjects.get(key) ?? []), a]);
  }
  for (const list of [...subjects.values()].filter((l) => l.length > 1)) {
    const first = list[0]!;
    cx.problems.push(
      `monitor "${first.monitorLabel}" has ${list.length} alerts with the subject "${String(first.values.subject_init)}" (ids ${list.map((a) => a.id).sort(cmp).join(', ')})`,
    );
  }
}

/** Groups, members by label; `conflicting` are the shared labels already reported. Unsorted. */
function collectGroups(cx: BuildCtx, conflicting: ReadonlySet<string>): ExportedGroup[] {
  const { live, warnings, problems, labelCount } = cx;
  const groupNames = countBy(live.groups.map((g) => g.name));
  const groups: ExportedGroup[] = [];
  for (const g of live.groups) {
    if (!cx.match.matches(g.name)) continue;
    if ((groupNames.get(g.name) ?? 0) > 1) {
      const ids = live.groups.filter((o) => o.name === g.name).map((o) => o.id).sort(cmp);
      if (ids[0] === g.id) problems.push(`group name "${g.name}" is shared by the groups with ids ${ids.join(', ')}`);
      continue;
    }
    const labels = new Set<string>();
    const memberIds = new Set<string>();
    for (const member of g.members) {
      const label = member.label ?? cx.byId.get(member.id)?.label ?? null;
      if (label === null) {
        warnings.push(`group "${g.name}": member id ${member.id} has no known label: left out of its monitors`);
        continue;
      }
      if ((labelCount.get(label) ?? 0) > 1 && !conflicting.has(label)) {
        const same = (cx.byLabel.get(label) ?? []).map((o) => o.id).sort(cmp);
        problems.push(`group "${g.name}": its member label "${label}" is shared by the monitors with ids ${same.join(', ')}`);
      }
      labels.add(label);
      memberIds.add(member.id);
    }
    groups.push({ id: g.id, name: g.name, members: [...labels].sort(cmp), memberIds });
  }
  return groups;
}

/** The model in its written order, with the shared values factored into `defaults`. */
function assemble(
  cx: BuildCtx,
  opts: BuildOptions,
  selected: readonly Monitor[],
  nested: ReadonlyMap<string, ExportedAlert[]>,
  topLevel: ExportedAlert[],
  groups: ExportedGroup[],
): ExportModel {
  const warnings = cx.warnings;
  const alertOrder = (x: ExportedAlert, y: ExportedAlert) =>
    cmp(x.monitorLabel, y.monitorLabel) ||
    cmp(String(x.values.subject_init), String(y.values.subject_init)) ||
    cmp(String(x.values.subject_term), String(y.values.subject_term)) ||
    cmp(x.id, y.id);

  const monitors: ExportedMonitor[] = selected
    .map((m) => ({
      id: m.id,
      label: m.label,
      ip_address: m.ip_address!,
      test_account: m.test_account!,
      values: monitorValues(m),
      meta: userMeta(m.meta),
      alerts: (nested.get(m.id) ?? []).sort(alertOrder),
    }))
    .sort((x, y) => cmp(x.label, y.label) || cmp(x.id, y.id));
  const alerts = topLevel.sort(alertOrder);

  groups.sort((x, y) => cmp(x.name, y.name) || cmp(x.id, y.id));

  for (const g of opts.match ?? []) {
    if (!cx.match.used.has(g)) warnings.push(`--match ${g} matched no monitor or group`);
  }

  const allAlerts = [...monitors.flatMap((m) => m.alerts), ...alerts];
  const defaults = {
    monitor: factor(monitors.map((m) => m.values), MONITOR_FACTORABLE, MONITOR_DEFAULTS),
    alert: factor(allAlerts.map((a) => a.values), ALERT_FACTORABLE, ALERT_DEFAULTS),
  };

  return { owner: opts.owner, monitors, alerts, groups, defaults, warnings };
}

/** Canonical values of a monitor's factorable fields: null (not sent) means the documented default. */
function monitorValues(m: Monitor): Fields {
  const v: Fields = {};
  for (const f of MONITOR_FACTORABLE) v[f] = m[f] ?? MONITOR_DEFAULTS[f] ?? null;
  return v;
}

function userMeta(meta: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(meta).sort(cmp)) {
    if (key === OWNER_META_KEY) continue;
    out[key] = meta[key]!;
  }
  return out;
}

/**
 * The values every item shares (and that are not already the documented default) go to
 * `defaults`; the caller then writes per item only what differs from both.
 */
function factor(items: Fields[], fields: readonly string[], documented: Fields): Fields {
  const out: Fields = {};
  if (items.length === 0) return out;
  for (const f of fields) {
    const first = items[0]![f];
    if (first === null || first === undefined) continue;
    if (isDefault(f, first, documented)) continue;
    if (items.every((it) => sameValue(it[f], first))) out[f] = first;
  }
  return out;
}

/** Fields of one item to write: neither the documented default nor taken from `defaults`. */
export function ownFields(values: Fields, fields: readonly string[], documented: 'monitor' | 'alert', factored: Fields): Fields {
  const defaults = documented === 'monitor' ? MONITOR_DEFAULTS : ALERT_DEFAULTS;
  const out: Fields = {};
  for (const f of fields) {
    const v = values[f];
    if (v === null || v === undefined) continue;
    if (f in factored) continue;
    if (isDefault(f, v, defaults)) continue;
    out[f] = v;
  }
  return out;
}

function countBy(values: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}
