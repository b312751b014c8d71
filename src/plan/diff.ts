/**
 * The planner: desired state + live state -> Plan. Pure: no I/O, and no clock unless `now` is absent.
 *
 * Identity is by name, never by position: monitors by label, groups by name, destinations by label,
 * alerts by their monitor plus subject_init. Renames are declared (previous_labels, previous_names,
 * previous_subjects) so that a rename keeps the live id, and with it alert history and membership.
 * Anything ambiguous or contradictory is a problem the user must fix; every problem is collected and
 * thrown together as one PlanError.
 */
import {
  DOCUMENTED_MONITOR_DEFAULTS,
  OWNER_META_KEY,
  type Alert,
  type Destination,
  type Group,
  type LiveState,
  type Monitor,
} from '../model/live.js';
import {
  ALERT_BODY_FIELDS,
  MONITOR_SPEC_FIELDS,
  type DesiredAlert,
  type DesiredGroup,
  type DesiredMonitor,
  type DesiredState,
  type SourceRef,
} from '../model/desired.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type ChangeNote,
  type IdOrRef,
  type Plan,
  type UnmanagedCounts,
} from './types.js';
import { PlanError } from './errors.js';
import { filterIgnored, fingerprintLive, canonicalJson } from './fingerprint.js';
import { matchesAny } from './glob.js';
import { orderChanges, refsInBody, summarize } from './order.js';

export { PlanError } from './errors.js';

export interface DiffOptions {
  /** Delete unmanaged monitors and undeclared groups; defaults to `settings.prune`. */
  prune?: boolean;
  /** Globs on keys: only matching changes (and what they need) are planned. */
  targets?: string[];
  /** Base URL of the account (no credentials). */
  target: string;
  now?: Date;
}

/** The monitor fields plan compares, in display order. */
export const MONITOR_FIELDS = ['label', ...MONITOR_SPEC_FIELDS, 'meta'] as const;
export type MonitorField = (typeof MONITOR_FIELDS)[number];

/** The alert fields plan compares, in display order. */
export const ALERT_FIELDS = ['subject_init', 'subject_term', ...ALERT_BODY_FIELDS] as const;

type Fields = Record<string, unknown>;
type MonitorClass = 'managed' | 'unmanaged' | 'foreign' | 'other';

const SPEC_OPTIONAL = [
  'port',
  'ipv6',
  'use_tls',
  'attachment',
  'custom_subject',
  'custom_body',
  'message_format',
  'ttl',
] as const;

const q = (s: string): string => JSON.stringify(s);
const at = (src: SourceRef | undefined): string => (src ? ` (${src.file}:${src.line})` : '');
const idPath = (kind: 'Monitor' | 'Alert' | 'Group', id: string): string =>
  `/v1/Config/${kind}/${encodeURIComponent(id)}/`;
const ids = (xs: readonly { id: string }[]): string => xs.map((x) => x.id).join(', ');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function sameValue(a: unknown, b: unknown): boolean {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    return canonicalJson(a) === canonicalJson(b);
  }
  return a === b;
}

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function uniq<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/**
 * Comparable monitor values: each spec field as given, or its documented default where the source
 * has none (the service's null, the config's omission). Both sides of the diff go through here, so
 * a default can never differ between them and plan a perpetual change.
 */
function monitorValues(label: string, source: Partial<Record<(typeof MONITOR_SPEC_FIELDS)[number], unknown>>, meta: Record<string, string>): Fields {
  const defaults: Record<string, unknown> = DOCUMENTED_MONITOR_DEFAULTS;
  const out: Fields = { label };
  for (const f of MONITOR_SPEC_FIELDS) out[f] = source[f] ?? (f in defaults ? defaults[f] : source[f]);
  out.meta = meta;
  return out;
}

/** Live monitor values with documented defaults for what the service left null. */
export function liveMonitorFields(m: Monitor): Fields {
  return monitorValues(m.label, m, { ...m.meta });
}

/** Desired monitor values: documented defaults overlaid with the spec, plus the ownership marker. */
export function desiredMonitorFields(dm: DesiredMonitor, owner: string): Fields {
  return monitorValues(dm.label, dm.spec, { ...DOCUMENTED_MONITOR_DEFAULTS.meta, ...(dm.spec.meta ?? {}), [OWNER_META_KEY]: owner });
}

/** The value a monitor field takes in a request body: the service clears an attachment with ''. */
function wireMonitorValue(field: string, value: unknown): unknown {
  return field === 'attachment' && value === null ? '' : value;
}

function classify(m: Monitor, owner: string): MonitorClass {
  if (m.type !== 'smtp') return 'other';
  if (!Object.prototype.hasOwnProperty.call(m.meta, OWNER_META_KEY)) return 'unmanaged';
  return m.meta[OWNER_META_KEY] === owner ? 'managed' : 'foreign';
}

/** Where a desired monitor found its live counterpart. */
interface MonitorMatch {
  live: Monitor;
  renamedFrom: string | null;
}

/** A monitor whose alerts this plan looks at. */
interface AlertHome {
  /** The label the monitor has once the plan is applied. */
  label: string;
  live: Monitor | null;
  /** Ref of the monitor's create change, when the plan creates it. */
  createRef: string | null;
  /** Undeclared live alerts are deleted (managed and adopted monitors) or left alone. */
  owned: boolean;
  desired: DesiredAlert[];
}

type MonitorRef =
  | { kind: 'desired'; dm: DesiredMonitor; live: Monitor | null }
  | { kind: 'live'; live: Monitor };

export function diff(desired: DesiredState, liveAll: LiveState, options: DiffOptions): Plan {
  const owner = desired.settings.owner;
  const ignore = desired.settings.ignore;
  const prune = options.prune ?? desired.settings.prune;
  const targets = options.targets ?? [];
  const problems: string[] = [];
  const warnings: string[] = [];
  const problem = (msg: string): void => {
    problems.push(msg);
  };

  // ---- ignore -------------------------------------------------------------------------------
  for (const dm of desired.monitors) {
    for (const l of [dm.label, ...dm.previous_labels]) {
      if (matchesAny(ignore, l)) problem(`monitor ${q(dm.label)}${at(dm.source)}: label ${q(l)} matches settings.ignore`);
    }
  }
  for (const dg of desired.groups) {
    for (const n of [dg.name, ...dg.previous_names]) {
      if (matchesAny(ignore, n)) problem(`group ${q(dg.name)}${at(dg.source)}: name ${q(n)} matches settings.ignore`);
    }
  }
  const ignoredMonitorIds = new Set(liveAll.monitors.filter((m) => matchesAny(ignore, m.label)).map((m) => m.id));
  const ignoredCount = ignoredMonitorIds.size + liveAll.groups.filter((g) => matchesAny(ignore, g.name)).length;
  const live = filterIgnored(liveAll, ignore);

  // ---- indexes --------------------------------------------------------------------------------
  const monitorById = new Map(live.monitors.map((m) => [m.id, m]));
  const monitorsByLabel = groupBy(live.monitors, (m) => m.label);
  const cls = new Map(live.monitors.map((m) => [m.id, classify(m, owner)]));
  const classOf = (m: Monitor): MonitorClass => cls.get(m.id) ?? 'other';
  const alertsByMonitor = groupBy([...live.alerts].sort(byId), (a) => a.monitor);
  const destById = new Map(live.destinations.map((d) => [d.id, d]));
  const destsByLabel = groupBy(live.destinations, (d) => d.label);
  const desiredByLabel = new Map<string, DesiredMonitor>();
  for (const dm of desired.monitors) {
    if (desiredByLabel.has(dm.label)) problem(`monitor ${q(dm.label)}${at(dm.source)} is declared more than once`);
    else desiredByLabel.set(dm.label, dm);
  }
  const describe = (m: Monitor): string => `monitor ${q(m.label)} (id ${m.id})`;
  const foreignOwner = (m: Monitor): string => q(m.meta[OWNER_META_KEY] ?? '');

  // ---- monitor identity -----------------------------------------------------------------------
  const matches = new Map<DesiredMonitor, MonitorMatch>();
  const takenBy = new Map<string, DesiredMonitor>();
  for (const dm of desiredByLabel.values()) {
    const cands = monitorsByLabel.get(dm.label) ?? [];
    if (cands.length === 0) continue;
    const others = cands.filter((m) => classOf(m) === 'other');
    const foreign = cands.filter((m) => classOf(m) === 'foreign');
    if (others.length > 0) {
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has a monitor of type ${others
          .map((m) => `${m.type} (id ${m.id})`)
          .join(', ')} with this label; monsync manages only smtp monitors, so rename one of them`,
      );
    } else if (foreign.length > 0) {
      problem(
        `monitor ${q(dm.label)}${at(dm.source)} conflicts with ${foreign
          .map((m) => `${describe(m)}, which is managed by ${foreignOwner(m)}`)
          .join('; ')}; this configuration's owner is ${q(owner)}`,
      );
    } else if (cands.length > 1) {
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has ${cands.length} monitors with this label (ids ${ids(
          cands,
        )}); rename or delete all but one in the service`,
      );
    } else {
      const m = cands[0]!;
      matches.set(dm, { live: m, renamedFrom: null });
      takenBy.set(m.id, dm);
    }
  }
  // A monitor found by its label while one of its previous labels also names a monitor that this
  // plan would delete: was it renamed, or is the old one still wanted? Guessing would delete a
  // monitor and its history, so the user decides.
  for (const [dm, match] of matches) {
    for (const prev of dm.previous_labels) {
      if (prev === dm.label || desiredByLabel.has(prev)) continue;
      const doomed = (monitorsByLabel.get(prev) ?? []).filter(
        (m) => classOf(m) === 'managed' || (classOf(m) === 'unmanaged' && prune),
      );
      if (doomed.length === 0) continue;
      problem(
        `monitor ${q(dm.label)}${at(dm.source)}: the account has both ${describe(match.live)} and ${doomed
          .map(describe)
          .join(', ')}, named by previous_labels; renaming is not possible and deleting the old one would lose its history. ` +
          `Delete or rename one of them in the service, or remove ${q(prev)} from previous_labels to have it deleted`,
      );
    }
  }

  // Previous labels only after every exact label has claimed its monitor: exact wins.
  const claimedByPrevious = new Map<string, DesiredMonitor>();
  for (const dm of desiredByLabel.values()) {
    if (matches.has(dm) || (monitorsByLabel.get(dm.label)?.length ?? 0) > 0) continue;
    for (const prev of dm.previous_labels) {
      if (prev === dm.label) continue;
      const cands = monitorsByLabel.get(prev) ?? [];
      const smtp = cands.filter((m) => classOf(m) !== 'other');
      for (const m of cands.filter((c) => classOf(c) === 'other')) {
        warnings.push(
          `monitor ${q(dm.label)}: previous label ${q(prev)} belongs to a ${m.type} monitor (id ${m.id}); not treated as a rename`,
        );
      }
      if (smtp.length === 0) continue;
      const foreign = smtp.filter((m) => classOf(m) === 'foreign');
      if (foreign.length > 0) {
        problem(
          `monitor ${q(dm.label)}${at(dm.source)}: previous label ${q(prev)} names ${foreign
            .map((m) => `${describe(m)}, which is managed by ${foreignOwner(m)}`)
            .join('; ')}; this configuration's owner is ${q(owner)}`,
        );
        break;
      }
      if (smtp.length > 1) {
        problem(
          `monitor ${q(dm.label)}${at(dm.source)}: previous label ${q(prev)} matches ${smtp.length} monitors (ids ${ids(
            smtp,
          )}); rename or delete all but one in the service`,
        );
        break;
      }
      const m = smtp[0]!;
      if (takenBy.has(m.id)) {
        const other = claimedByPrevious.get(m.id);
        if (other) {
          problem(
            `monitors ${q(other.label)} and ${q(dm.label)} both name ${describe(m)} as a previous label; keep it in one of them`,
          );
          break;
        }
        continue; // claimed by its exact label
      }
      matches.set(dm, { live: m, renamedFrom: prev });
      takenBy.set(m.id, dm);
      claimedByPrevious.set(m.id, dm);
      break;
    }
  }

  /**
   * Resolves a monitor label used by a reference (top-level alert, group member) to the desired
   * monitor of that label or to a live monitor the plan does not change.
   */
  const resolveMonitor = (label: string, context: string): MonitorRef | null => {
    const dm = desiredByLabel.get(label);
    if (dm) return { kind: 'desired', dm, live: matches.get(dm)?.live ?? null };
    if (matchesAny(ignore, label)) {
      problem(`${context}: monitor ${q(label)} matches settings.ignore`);
      return null;
    }
    const cands = monitorsByLabel.get(label) ?? [];
    if (cands.length === 0) {
      problem(`${context}: no monitor ${q(label)} in the configuration or the account`);
      return null;
    }
    if (cands.length > 1) {
      problem(`${context}: the account has ${cands.length} monitors labelled ${q(label)} (ids ${ids(cands)}); rename or delete all but one in the service`);
      return null;
    }
    const m = cands[0]!;
    const renamer = takenBy.get(m.id);
    if (renamer) {
      problem(`${context}: ${describe(m)} is renamed to ${q(renamer.label)} by this configuration; refer to it by its new label`);
      return null;
    }
    if (classOf(m) === 'managed') {
      problem(
        `${context}: ${describe(m)} is marked ${OWNER_META_KEY}: ${q(owner)} but not declared, so this plan would delete it; declare it or drop the reference`,
      );
      return null;
    }
    return { kind: 'live', live: m };
  };

  // ---- alert homes (needed before deletes: a referenced unmanaged monitor is never pruned) -----
  const homes = new Map<string, AlertHome>();
  for (const dm of desiredByLabel.values()) {
    const match = matches.get(dm);
    homes.set(`d:${dm.label}`, {
      label: dm.label,
      live: match?.live ?? null,
      createRef: match ? null : `monitor:${dm.label}`,
      owned: true,
      desired: [...dm.alerts],
    });
  }
  const referenced = new Set<string>();
  for (const da of desired.alerts) {
    const context = `alert ${q(`${da.monitor} / ${da.subject_init}`)}${at(da.source)}`;
    const r = resolveMonitor(da.monitor, context);
    if (!r) continue;
    if (r.kind === 'desired') {
      homes.get(`d:${r.dm.label}`)!.desired.push(da);
      continue;
    }
    const m = r.live;
    if (classOf(m) === 'foreign') {
      problem(`${context}: ${describe(m)} is managed by ${foreignOwner(m)}, whose configuration owns its alerts`);
      continue;
    }
    referenced.add(m.id);
    const key = `l:${m.id}`;
    const home = homes.get(key);
    if (home) home.desired.push(da);
    else homes.set(key, { label: m.label, live: m, createRef: null, owned: false, desired: [da] });
  }

  // ---- group identity and membership ---------------------------------------------------------
  const groupsByName = groupBy(live.groups, (g) => g.name);
  const desiredGroups = new Map<string, DesiredGroup>();
  for (const dg of desired.groups) {
    if (desiredGroups.has(dg.name)) problem(`group ${q(dg.name)}${at(dg.source)} is declared more than once`);
    else desiredGroups.set(dg.name, dg);
  }
  const groupMatches = new Map<DesiredGroup, { live: Group; renamedFrom: string | null }>();
  const groupTaken = new Map<string, DesiredGroup>();
  for (const dg of desiredGroups.values()) {
    const cands = groupsByName.get(dg.name) ?? [];
    if (cands.length > 1) {
      problem(`group ${q(dg.name)}${at(dg.source)}: the account has ${cands.length} groups with this name (ids ${ids(cands)}); rename or delete all but one in the service`);
    } else if (cands.length === 1) {
      groupMatches.set(dg, { live: cands[0]!, renamedFrom: null });
      groupTaken.set(cands[0]!.id, dg);
    }
  }
  const groupClaimedByPrevious = new Map<string, DesiredGroup>();
  for (const dg of desiredGroups.values()) {
    if (groupMatches.has(dg) || (groupsByName.get(dg.name)?.length ?? 0) > 0) continue;
    for (const prev of dg.previous_names) {
      if (prev === dg.name) continue;
      const cands = groupsByName.get(prev) ?? [];
      if (cands.length === 0) continue;
      if (cands.length > 1) {
        problem(`group ${q(dg.name)}${at(dg.source)}: previous name ${q(prev)} matches ${cands.length} groups (ids ${ids(cands)}); rename or delete all but one in the service`);
        break;
      }
      const g = cands[0]!;
      if (groupTaken.has(g.id)) {
        const other = groupClaimedByPrevious.get(g.id);
        if (other) {
          problem(`groups ${q(other.name)} and ${q(dg.name)} both name group ${q(g.name)} (id ${g.id}) as a previous name; keep it in one of them`);
          break;
        }
        continue;
      }
      groupMatches.set(dg, { live: g, renamedFrom: prev });
      groupTaken.set(g.id, dg);
      groupClaimedByPrevious.set(g.id, dg);
      break;
    }
  }
  interface Member {
    id: IdOrRef;
    label: string;
  }
  const desiredMembers = new Map<DesiredGroup, Member[]>();
  for (const dg of desiredGroups.values()) {
    const members: Member[] = [];
    for (const label of uniq(dg.monitors)) {
      const r = resolveMonitor(label, `group ${q(dg.name)}${at(dg.source)}`);
      if (!r) continue;
      if (r.kind === 'desired') {
        members.push({ id: r.live ? r.live.id : { $ref: `monitor:${r.dm.label}` }, label: r.dm.label });
      } else {
        referenced.add(r.live.id);
        members.push({ id: r.live.id, label: r.live.label });
      }
    }
    desiredMembers.set(dg, members);
  }

  // ---- monitor changes -------------------------------------------------------------------------
  const changes: Change[] = [];
  const unmanaged: UnmanagedCounts = {
    monitors: 0,
    foreign_monitors: 0,
    alerts: 0,
    groups: 0,
    other_type_monitors: 0,
    ignored: ignoredCount,
  };
  for (const dm of desiredByLabel.values()) {
    const after = desiredMonitorFields(dm, owner);
    const match = matches.get(dm);
    if (!match) {
      const given: string[] = ['label', 'ip_address', 'test_account', 'timer', 'time_zone'];
      const body: Fields = {
        type: 'smtp',
        label: dm.label,
        ip_address: dm.spec.ip_address,
        test_account: dm.spec.test_account,
        timer: dm.spec.timer,
        time_zone: dm.spec.time_zone,
      };
      for (const f of SPEC_OPTIONAL) {
        const v = dm.spec[f];
        // An attachment of null is "none", which is what omitting it means on create.
        if (v === undefined || v === null) continue;
        given.push(f);
        body[f] = v;
      }
      given.push('meta');
      body.meta = after.meta;
      changes.push({
        ref: `monitor:${dm.label}`,
        action: 'create',
        kind: 'monitor',
        key: dm.label,
        id: null,
        before: null,
        after,
        changed: MONITOR_FIELDS.filter((f) => given.includes(f)),
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Monitor/', body },
        source: dm.source,
      });
      continue;
    }
    const m = match.live;
    const before = liveMonitorFields(m);
    const changed = MONITOR_FIELDS.filter((f) => !sameValue(before[f], after[f]));
    if (changed.length === 0) continue;
    const body: Fields = {};
    for (const f of changed) body[f] = wireMonitorValue(f, after[f]);
    const note: ChangeNote = {};
    if (classOf(m) === 'unmanaged') note.adopt = true;
    if (match.renamedFrom !== null) note.renamed_from = m.label;
    changes.push({
      ref: `monitor:${dm.label}`,
      action: 'update',
      kind: 'monitor',
      key: dm.label,
      id: m.id,
      before,
      after,
      changed,
      depends_on: [],
      call: { method: 'PUT', path: idPath('Monitor', m.id), body },
      ...(Object.keys(note).length > 0 ? { note } : {}),
      source: dm.source,
    });
  }

  const deletedMonitors = new Set<string>();
  const monitorDeletes: Change[] = [];
  for (const m of [...live.monitors].sort(byId)) {
    const c = classOf(m);
    if (c === 'other') {
      unmanaged.other_type_monitors++;
      continue;
    }
    if (takenBy.has(m.id)) continue;
    const remove = c === 'managed' || (c === 'unmanaged' && prune && !referenced.has(m.id));
    if (!remove) {
      unmanaged.monitors++;
      if (c === 'foreign') unmanaged.foreign_monitors!++;
      continue;
    }
    deletedMonitors.add(m.id);
    const cascade = uniq([...(alertsByMonitor.get(m.id) ?? []).map((a) => a.id), ...m.alerts]).length;
    const change: Change = {
      ref: `monitor:${m.label}`,
      action: 'delete',
      kind: 'monitor',
      key: m.label,
      id: m.id,
      before: liveMonitorFields(m),
      after: null,
      changed: [],
      depends_on: [],
      call: { method: 'DELETE', path: idPath('Monitor', m.id) },
      note: c === 'managed' ? { cascade_alerts: cascade } : { pruned: true, cascade_alerts: cascade },
    };
    monitorDeletes.push(change);
    changes.push(change);
  }

  // ---- alerts ---------------------------------------------------------------------------------
  const warnedUnsubscribed = new Set<string>();
  const destLabel = (id: string): string => destById.get(id)?.label ?? id;
  const resolveDestinations = (da: DesiredAlert, context: string): string[] => {
    const out: string[] = [];
    for (const label of uniq(da.alert_destinations)) {
      const cands: Destination[] = destsByLabel.get(label) ?? [];
      if (cands.length === 0) {
        const known = [...destsByLabel.keys()].sort().map(q).join(', ');
        problem(`${context}: unknown alert destination ${q(label)}${known ? `; the account has ${known}` : '; the account has none'}`);
        continue;
      }
      if (cands.length > 1) {
        problem(`${context}: alert destination label ${q(label)} is ambiguous (ids ${ids(cands)}); rename all but one in the service`);
        continue;
      }
      const d = cands[0]!;
      if (!d.subscribed && !warnedUnsubscribed.has(d.id)) {
        warnedUnsubscribed.add(d.id);
        warnings.push(`alert destination ${q(d.label)} (id ${d.id}) has unsubscribed: it receives no alerts`);
      }
      out.push(d.id);
    }
    return out;
  };
  const liveAlertFields = (a: Alert): Fields => ({
    subject_init: a.subject_init,
    subject_term: a.subject_term,
    timeout: a.timeout,
    alert_destinations: uniq(a.alert_destinations.map(destLabel)).sort(),
    message_init: a.message_init,
    message_term: a.message_term,
    down_only: a.down_only,
    repeat: a.repeat,
  });

  for (const home of homes.values()) {
    const seen = new Set<string>();
    const declared: DesiredAlert[] = [];
    for (const da of home.desired) {
      if (seen.has(da.subject_init)) {
        problem(`alert ${q(`${home.label} / ${da.subject_init}`)}${at(da.source)} is declared more than once`);
        continue;
      }
      seen.add(da.subject_init);
      declared.push(da);
    }
    const liveAlerts = home.live ? (alertsByMonitor.get(home.live.id) ?? []) : [];
    const { pairs, unmatchedDesired, unmatchedLive } = pairAlerts(declared, liveAlerts, home.owned);
    const monitorId: IdOrRef = home.live ? home.live.id : { $ref: home.createRef! };

    const plannedAlert = (da: DesiredAlert) => {
      const key = `${home.label} / ${da.subject_init}`;
      const destIds = resolveDestinations(da, `alert ${q(key)}${at(da.source)}`);
      const after: Fields = {
        subject_init: da.subject_init,
        subject_term: da.subject_term,
        timeout: da.timeout,
        alert_destinations: uniq(destIds.map(destLabel)).sort(),
        message_init: da.message_init ?? '',
        message_term: da.message_term ?? '',
        down_only: da.down_only ?? false,
        repeat: da.repeat ?? false,
      };
      const body: Fields = {
        type: 'up-down',
        monitor: monitorId,
        subject_init: da.subject_init,
        subject_term: da.subject_term,
        timeout: da.timeout,
        alert_destinations: destIds,
        // The service misbehaves unless both messages are sent (service notes): always send them.
        message_init: after.message_init,
        message_term: after.message_term,
        down_only: after.down_only,
        repeat: after.repeat,
      };
      return { key, destIds, after, body };
    };

    for (const [da, a] of pairs) {
      if (a.type !== 'up-down' && a.type !== '') {
        // The update's body says `type: "up-down"`: it would convert the alert, which no field of the plan shows.
        // ('' is a list entry without a type: nothing says it is another type.)
        problem(
          `alert ${q(`${home.label} / ${da.subject_init}`)}${at(da.source)} matches alert ${q(a.subject_init)} (id ${a.id}) of type ${q(
            a.type,
          )}; monsync manages only up-down alerts, so give the declared alert another subject_init`,
        );
        continue;
      }
      const { key, destIds, after, body } = plannedAlert(da);
      const before = liveAlertFields(a);
      const changed = ALERT_FIELDS.filter((f) =>
        f === 'alert_destinations'
          ? !sameValue(uniq(a.alert_destinations).sort(), uniq(destIds).sort())
          : !sameValue(before[f], after[f]),
      );
      if (changed.length === 0) continue;
      changes.push({
        ref: `alert:${home.label}/${da.subject_init}`,
        action: 'update',
        kind: 'alert',
        key,
        monitor: home.label,
        id: a.id,
        before,
        after,
        changed,
        depends_on: [],
        call: { method: 'PUT', path: idPath('Alert', a.id), body },
        ...(a.subject_init !== da.subject_init ? { note: { subject_changed_from: a.subject_init } } : {}),
        source: da.source,
      });
    }
    for (const da of unmatchedDesired) {
      const { key, after, body } = plannedAlert(da);
      const given: string[] = ['subject_init', 'subject_term', 'timeout', 'alert_destinations'];
      for (const f of ['message_init', 'message_term', 'down_only', 'repeat'] as const) {
        if (da[f] !== undefined) given.push(f);
      }
      changes.push({
        ref: `alert:${home.label}/${da.subject_init}`,
        action: 'create',
        kind: 'alert',
        key,
        monitor: home.label,
        id: null,
        before: null,
        after,
        changed: ALERT_FIELDS.filter((f) => given.includes(f)),
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Alert/', body },
        source: da.source,
      });
    }
    for (const a of unmatchedLive) {
      // Alerts of other types cannot be created through the API: deleting one could never be undone.
      if (!home.owned || (a.type !== 'up-down' && a.type !== '')) {
        unmanaged.alerts++;
        continue;
      }
      changes.push({
        ref: `alert:${home.label}/${a.subject_init}`,
        action: 'delete',
        kind: 'alert',
        key: `${home.label} / ${a.subject_init}`,
        monitor: home.label,
        id: a.id,
        before: liveAlertFields(a),
        after: null,
        changed: [],
        depends_on: [],
        call: { method: 'DELETE', path: idPath('Alert', a.id) },
      });
    }
  }
  // Undeclared alerts on monitors left alone.
  for (const m of live.monitors) {
    if (takenBy.has(m.id) || deletedMonitors.has(m.id) || homes.has(`l:${m.id}`)) continue;
    unmanaged.alerts += alertsByMonitor.get(m.id)?.length ?? 0;
  }

  // ---- groups ----------------------------------------------------------------------------------
  const memberLabel = (member: { id: string; label: string | null }): string =>
    monitorById.get(member.id)?.label ?? member.label ?? member.id;
  const removalsByMonitor = new Map<string, string[]>();
  for (const dg of desiredGroups.values()) {
    const members = desiredMembers.get(dg) ?? [];
    const after: Fields = { name: dg.name, monitors: members.map((m) => m.label).sort() };
    const match = groupMatches.get(dg);
    if (!match) {
      const body: Fields = { name: dg.name };
      if (members.length > 0) body.monitors = members.map((m) => m.id);
      changes.push({
        ref: `group:${dg.name}`,
        action: 'create',
        kind: 'group',
        key: dg.name,
        id: null,
        before: null,
        after,
        changed: members.length > 0 ? ['name', 'monitors'] : ['name'],
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Group/', body },
        source: dg.source,
      });
      continue;
    }
    const g = match.live;
    // Ignored monitors stay where they are: ignore means hands off, also for membership.
    const keptIgnored = uniq(g.members.filter((mem) => ignoredMonitorIds.has(mem.id)).map((mem) => mem.id));
    const liveMembers = g.members.filter((mem) => !ignoredMonitorIds.has(mem.id));
    const liveIds = new Set(liveMembers.map((mem) => mem.id));
    const desiredIds = new Set(members.flatMap((m) => (typeof m.id === 'string' ? [m.id] : [])));
    const added = members.filter((m) => typeof m.id !== 'string' || !liveIds.has(m.id));
    const removed = uniq(liveMembers.map((mem) => mem.id)).filter((id) => !desiredIds.has(id));
    const liveMemberById = new Map(liveMembers.map((mem) => [mem.id, mem]));
    const before: Fields = {
      name: g.name,
      monitors: [...liveMemberById.values()].map(memberLabel).sort(),
    };
    const changed: string[] = [];
    if (g.name !== dg.name) changed.push('name');
    if (added.length > 0 || removed.length > 0) changed.push('monitors');
    if (changed.length === 0) continue;
    const note: ChangeNote = {};
    if (match.renamedFrom !== null) note.renamed_from = g.name;
    if (added.length > 0) note.members_added = added.map((m) => m.label).sort();
    if (removed.length > 0) {
      note.members_removed = removed.map((id) => memberLabel(liveMemberById.get(id)!)).sort();
    }
    const ref = `group:${dg.name}`;
    for (const id of removed) removalsByMonitor.set(id, [...(removalsByMonitor.get(id) ?? []), ref]);
    changes.push({
      ref,
      action: 'update',
      kind: 'group',
      key: dg.name,
      id: g.id,
      before,
      after,
      changed,
      depends_on: [],
      call: {
        method: 'PUT',
        path: idPath('Group', g.id),
        body: { name: dg.name, monitors: [...members.map((m) => m.id), ...keptIgnored], replace: true },
      },
      note,
      source: dg.source,
    });
  }
  for (const g of [...live.groups].sort(byId)) {
    if (groupTaken.has(g.id)) continue;
    if (!prune) {
      unmanaged.groups++;
      continue;
    }
    const liveMembers = g.members.filter((mem) => !ignoredMonitorIds.has(mem.id));
    changes.push({
      ref: `group:${g.name}`,
      action: 'delete',
      kind: 'group',
      key: g.name,
      id: g.id,
      before: { name: g.name, monitors: uniq(liveMembers.map(memberLabel)).sort() },
      after: null,
      changed: [],
      depends_on: [],
      call: { method: 'DELETE', path: idPath('Group', g.id) },
      note: { pruned: true },
    });
  }
  // A monitor leaves its groups (by their replace) before it is deleted.
  for (const c of monitorDeletes) c.depends_on = removalsByMonitor.get(c.id!) ?? [];

  // ---- touched duplicates ------------------------------------------------------------------------
  // Deletes go by id, but a person reading "delete monitor x" cannot tell which x: refuse instead.
  for (const c of changes) {
    if (c.action !== 'delete' || c.kind === 'alert') continue;
    const same =
      c.kind === 'monitor' ? (monitorsByLabel.get(c.key) ?? []) : (groupsByName.get(c.key) ?? []);
    if (same.length > 1) {
      problem(
        `${c.kind} ${q(c.key)}: this plan would delete id ${c.id}, but the account has ${same.length} ${c.kind}s with this ${
          c.kind === 'monitor' ? 'label' : 'name'
        } (ids ${ids(same)}); rename or delete all but one in the service`,
      );
    }
  }

  if (problems.length > 0) throw new PlanError(uniq(problems));

  // ---- refs, targets, order -------------------------------------------------------------------------
  uniqueRefs(changes);
  let planned = changes;
  if (targets.length > 0) {
    planned = selectTargets(changes, targets);
    const left = changes.length - planned.length;
    if (left > 0) {
      warnings.push(
        `--target limits this plan to ${plural(planned.length, 'change')}; ${plural(left, 'other change')} ${
          left === 1 ? 'is' : 'are'
        } left out, so the account will not match the configuration afterwards`,
      );
    }
  }
  const ordered = orderChanges(planned);

  return {
    format_version: PLAN_FORMAT_VERSION,
    created_at: (options.now ?? new Date()).toISOString(),
    target: options.target,
    files: [...desired.files],
    options: { prune, targets: [...targets], owner, ignore: [...ignore] },
    changes: ordered,
    summary: summarize(ordered),
    unmanaged,
    fingerprint: fingerprintLive(liveAll, ignore),
    warnings,
  };
}

/**
 * Pairs desired and live alerts of one monitor: exact subject_init, then previous_subjects; then,
 * only where this plan owns the monitor's alerts (fuzzy), a lone leftover pair, else leftovers
 * with a subject_term that is unique on both sides. On monitors we do not own, a leftover live alert
 * is somebody else's and must not be rewritten into ours.
 */
export function pairAlerts(
  desired: readonly DesiredAlert[],
  live: readonly Alert[],
  fuzzy: boolean,
): { pairs: [DesiredAlert, Alert][]; unmatchedDesired: DesiredAlert[]; unmatchedLive: Alert[] } {
  const used = new Set<Alert>();
  const paired = new Map<DesiredAlert, Alert>();
  const take = (d: DesiredAlert, a: Alert): void => {
    used.add(a);
    paired.set(d, a);
  };
  for (const d of desired) {
    const a = live.find((x) => !used.has(x) && x.subject_init === d.subject_init);
    if (a) take(d, a);
  }
  for (const d of desired) {
    if (paired.has(d)) continue;
    for (const prev of d.previous_subjects ?? []) {
      const a = live.find((x) => !used.has(x) && x.subject_init === prev);
      if (a) {
        take(d, a);
        break;
      }
    }
  }
  if (fuzzy) {
    const dl = desired.filter((d) => !paired.has(d));
    const ll = live.filter((a) => !used.has(a));
    if (dl.length === 1 && ll.length === 1) {
      take(dl[0]!, ll[0]!);
    } else {
      for (const d of dl) {
        const ds = dl.filter((x) => x.subject_term === d.subject_term);
        const ls = ll.filter((a) => a.subject_term === d.subject_term);
        if (ds.length === 1 && ls.length === 1 && !used.has(ls[0]!)) take(d, ls[0]!);
      }
    }
  }
  return {
    pairs: desired.flatMap((d) => {
      const a = paired.get(d);
      return a ? [[d, a] as [DesiredAlert, Alert]] : [];
    }),
    unmatchedDesired: desired.filter((d) => !paired.has(d)),
    unmatchedLive: live.filter((a) => !used.has(a)),
  };
}

/**
 * Refs must be unique. Creates are keyed by declared names (alert creates that still collide get a
 * counter); updates and deletes of live resources that share a key (duplicate live alerts) get their
 * id appended.
 */
function uniqueRefs(changes: Change[]): void {
  const seen = new Set<string>();
  for (const c of changes) {
    if (c.action !== 'create') continue;
    // Alert refs join a label and a subject with '/', both free text: monitor "a" alert "b/c" and
    // monitor "a/b" alert "c" share one. Nothing refers to an alert create, so a suffix is safe.
    if (seen.has(c.ref)) {
      let n = 2;
      while (seen.has(`${c.ref}#${n}`)) n++;
      c.ref = `${c.ref}#${n}`;
    }
    seen.add(c.ref);
  }
  for (const c of changes) {
    if (c.action === 'create') continue;
    if (seen.has(c.ref)) c.ref = `${c.ref}#${c.id}`;
    seen.add(c.ref);
  }
}

/**
 * `--target`: changes whose key matches (alerts also by their monitor's label), plus the creates
 * whose ids they need. Ordering-only dependencies (a group update before a monitor delete) do not
 * pull changes in: they are dropped when the other change is not targeted.
 */
function selectTargets(changes: Change[], targets: readonly string[]): Change[] {
  const byRef = new Map(changes.map((c) => [c.ref, c]));
  const keep = new Set<string>();
  const visit = (c: Change): void => {
    if (keep.has(c.ref)) return;
    keep.add(c.ref);
    for (const r of refsInBody(c.call.body)) {
      const dep = byRef.get(r);
      if (dep) visit(dep);
    }
  };
  for (const c of changes) {
    if (matchesAny(targets, c.key) || (c.kind === 'alert' && c.monitor !== undefined && matchesAny(targets, c.monitor))) {
      visit(c);
    }
  }
  return changes
    .filter((c) => keep.has(c.ref))
    .map((c) => ({ ...c, depends_on: c.depends_on.filter((r) => keep.has(r)) }));
}
