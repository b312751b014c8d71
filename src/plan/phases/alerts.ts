/**
 * The alert phases. Homes (before the monitor deletes: a referenced unmanaged monitor is never
 * pruned): top-level alerts join their declared monitor's alerts, or go to the live monitor they
 * name. Changes: on each monitor, declared and live alerts are paired (alert-pairing.ts) and become
 * updates, creates and, where this configuration owns the monitor, deletes; copies heal, and the
 * old-and-new rule of renames applies to previous_subjects (docs/semantics.md, "Alert matching").
 */
import type { DesiredAlert } from '../../model/desired.js';
import { plural } from '../../util/plural.js';
import type { Alert, Destination, Monitor } from '../../model/live.js';
import type { IdOrRef } from '../types.js';
import { pairAlerts, type AlertPairing } from './alert-pairing.js';
import type { PlanContext } from './context.js';
import { resolveLiveMonitor } from './monitors.js';
import { alertContext, didYouMean, hasRepeatedSubject, idPath, ids, isOtherType, located, NO_ALERTS, q, uniq } from './util.js';
import {
  ALERT_FIELDS,
  alertFieldsUnchanged,
  alertUnchanged,
  desiredAlertFields,
  liveAlertFields,
  sameLiveAlert,
  sameSet,
  sameValue,
  type Fields,
} from './values.js';

/**
 * Top-level alerts: on declared monitors they join the declared ones; live monitors that get some
 * are planned after all declared monitors, in order of first reference.
 */
export function placeTopLevelAlerts(ctx: PlanContext, alerts: readonly DesiredAlert[]): void {
  for (const da of alerts) {
    const context = (): string => `alert ${q(`${da.monitor} / ${da.subject_init}`)}`;
    const where = () => ctx.positions?.alertMonitor(da) ?? da.source;
    const d = ctx.declared.get(da.monitor);
    if (d) {
      (d.extraAlerts ??= []).push(da);
      continue;
    }
    const m = resolveLiveMonitor(ctx, da.monitor, context, where);
    if (!m) continue;
    if (ctx.classOf(m) === 'foreign') {
      ctx.problem(located(where(), `${context()}: ${ctx.describe(m)} is managed by ${ctx.foreignOwner(m)}, whose configuration owns its alerts`));
      continue;
    }
    ctx.referenced.add(m.id);
    const home = ctx.liveHomes.get(m.id);
    if (home) home.desired.push(da);
    else ctx.liveHomes.set(m.id, { live: m, desired: [da] });
  }
}

/** The alert changes of every declared monitor, then of the live monitors top-level alerts name. */
export function planAlertChanges(ctx: PlanContext): void {
  const planner = new AlertPlanner(ctx);
  for (const { dm, match, extraAlerts: extra } of ctx.declared.values()) {
    const m = match?.live ?? null;
    const alerts = extra ? [...dm.alerts, ...extra] : dm.alerts;
    if (m !== null && planner.alertsQuietlyUnchanged(alerts, ctx.alertsByMonitor.get(m.id) ?? NO_ALERTS)) continue;
    planner.planAlerts(dm.label, m, m ? null : `monitor:${dm.label}`, true, alerts);
  }
  for (const h of ctx.liveHomes.values()) {
    planner.planAlerts(h.live.label, h.live, null, false, h.desired);
  }
  if (planner.otherTypeKept > 0) ctx.unmanaged.other_type_alerts = planner.otherTypeKept;
}

function alertBody(da: DesiredAlert, destIds: string[], after: Fields, monitorId: IdOrRef): Fields {
  return {
    type: 'up-down',
    monitor: monitorId,
    subject_init: da.subject_init,
    subject_term: da.subject_term,
    // No timeout at all rather than null: an alert of another monitor type is sent without one.
    ...(da.timeout !== null ? { timeout: da.timeout } : {}),
    alert_destinations: destIds,
    // The service misbehaves unless both messages are sent (service notes): always send them.
    message_init: after.message_init,
    message_term: after.message_term,
    down_only: after.down_only,
    repeat: after.repeat,
  };
}

/** One monitor's declared alerts, their live partners, and what is left on either side. */
interface Pairing {
  label: string;
  liveMonitor: Monitor | null;
  owned: boolean;
  declared: readonly DesiredAlert[];
  partner: readonly (Alert | undefined)[];
  unmatchedLive: readonly Alert[];
  monitorId: IdOrRef;
  guessed?: AlertPairing['guessed'];
}

class AlertPlanner {
  private readonly warnedUnsubscribed = new Set<string>();
  /** Other-type alerts on monitors this configuration owns. */
  otherTypeKept = 0;
  /** Old alerts a problem is about: never deleted. */
  private readonly blockedAlerts = new Set<string>();
  /**
   * A bad destination in defaults.alert is one problem, at the default, naming the alerts that
   * took it: its place among the problems and the alerts so far, by position and label.
   */
  private readonly defaultProblems = new Map<string, { index: number; message: string; alerts: string[] }>();

  constructor(private readonly ctx: PlanContext) {}

  /** A problem with destination `index` of `da`: at the label, or once at the default it came from. */
  private destinationProblem(da: DesiredAlert, monitorLabel: string, index: number, problem: string): void {
    const ctx = this.ctx;
    const where = ctx.positions?.alertDestination(da, index);
    if (!where?.fromDefaults) {
      ctx.problem(located(where ?? da.source, `${alertContext(monitorLabel, da)}: ${problem}`));
      return;
    }
    const key = `${where.file}:${where.line}:${where.column}\u0000${problem}`;
    let entry = this.defaultProblems.get(key);
    if (!entry) {
      entry = { index: ctx.problems.length, message: located(where, `defaults.alert: ${problem}`), alerts: [] };
      this.defaultProblems.set(key, entry);
      ctx.problem(entry.message);
    }
    entry.alerts.push(`${monitorLabel} / ${da.subject_init}`);
    const shown = entry.alerts.slice(0, 3).map(q).join(', ');
    const more = entry.alerts.length > 3 ? ` and ${entry.alerts.length - 3} more` : '';
    ctx.problems[entry.index] = `${entry.message} (taken by ${plural(entry.alerts.length, 'alert')}: ${shown}${more})`;
  }

  /** Ids of the declared destinations; problems and warnings in the order alerts are planned. */
  private resolveDestinations(da: DesiredAlert, monitorLabel: string): string[] {
    const ctx = this.ctx;
    const labels = da.alert_destinations;
    // Short lists (all real ones) skip repeats by position rather than through a Set.
    const list = labels.length > 16 ? uniq(labels) : labels;
    const out: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const label = list[i]!;
      if (list === labels && labels.indexOf(label) !== i) continue;
      const cands: Destination[] = ctx.destsByLabel.get(label) ?? [];
      if (cands.length === 0) {
        const suggestion = didYouMean(label, ctx.destsByLabel.keys());
        const known = [...ctx.destsByLabel.keys()].sort().map(q).join(', ');
        const rest = suggestion !== '' ? suggestion : known ? `; the account has ${known}` : '; the account has none';
        this.destinationProblem(da, monitorLabel, labels.indexOf(label), `unknown alert destination ${q(label)}${rest}`);
        continue;
      }
      if (cands.length > 1) {
        this.destinationProblem(da, monitorLabel, labels.indexOf(label), `alert destination label ${q(label)} is ambiguous (ids ${ids(cands)}); rename all but one in the service`);
        continue;
      }
      const d = cands[0]!;
      if (!d.subscribed && !this.warnedUnsubscribed.has(d.id)) {
        this.warnedUnsubscribed.add(d.id);
        ctx.warnings.push(`alert destination ${q(d.label)} (id ${d.id}) has unsubscribed: it receives no alerts`);
      }
      out.push(d.id);
    }
    return out;
  }

  /**
   * The alert changes of one monitor: `label` is the one it has once the plan is applied,
   * `createRef` the ref of its create change when the plan creates it; undeclared live alerts are
   * deleted where the plan `owned` them (managed and adopted monitors), else left alone.
   */
  planAlerts(label: string, liveMonitor: Monitor | null, createRef: string | null, owned: boolean, alerts: readonly DesiredAlert[]): void {
    let declared = alerts;
    if (hasRepeatedSubject(declared)) {
      const seen = new Set<string>();
      const kept: DesiredAlert[] = [];
      for (const da of declared) {
        if (seen.has(da.subject_init)) {
          this.ctx.problem(located(da.source, `${alertContext(label, da)} is declared more than once`));
          continue;
        }
        seen.add(da.subject_init);
        kept.push(da);
      }
      declared = kept;
    }
    // validate cannot know the type of a top-level alert's monitor; the account does. The service
    // requires a timeout on an SMTP monitor's alerts only.
    if (liveMonitor === null || liveMonitor.type === 'smtp') {
      for (const da of declared) {
        if (da.timeout !== null) continue;
        this.ctx.problem(
          located(da.source, `${alertContext(label, da)}: monitor ${q(label)} is an SMTP monitor, whose alerts need a timeout; set it here or in defaults.alert`),
        );
      }
    }
    const liveAlerts = liveMonitor ? (this.ctx.alertsByMonitor.get(liveMonitor.id) ?? NO_ALERTS) : NO_ALERTS;
    const { partner, unmatchedLive, guessed } = pairAlerts(declared, liveAlerts, owned);
    const monitorId: IdOrRef = liveMonitor ? liveMonitor.id : { $ref: createRef! };
    const p: Pairing = { label, liveMonitor, owned, declared, partner, unmatchedLive, monitorId, guessed };
    this.updates(p);
    const creates = this.creates(p);
    if (unmatchedLive.length > 0) this.leftovers(p, creates);
  }

  private updates({ label, declared, partner, monitorId, guessed }: Pairing): void {
    const ctx = this.ctx;
    for (let i = 0; i < declared.length; i++) {
      const a = partner[i];
      if (a === undefined) continue;
      const da = declared[i]!;
      if (a.type !== 'up-down' && a.type !== '') {
        // The update's body says `type: "up-down"`: it would convert the alert, which no field of the plan shows.
        // ('' is a list entry without a type: nothing says it is another type.)
        ctx.problem(
          located(da.source, `${alertContext(label, da)} matches alert ${q(a.subject_init)} (id ${a.id}) of type ${q(
            a.type,
          )}; monsync manages only up-down alerts, so give the declared alert another subject_init`),
        );
        continue;
      }
      const destIds = this.resolveDestinations(da, label);
      if (alertUnchanged(a, da, destIds)) continue;
      const after = desiredAlertFields(da, destIds, ctx.destLabel);
      const before = liveAlertFields(a, ctx.destLabel);
      const changed = ALERT_FIELDS.filter((f) =>
        f === 'alert_destinations' ? !sameSet(a.alert_destinations, destIds) : !sameValue(before[f], after[f]),
      );
      if (changed.length === 0) continue;
      ctx.changes.push({
        ref: `alert:${label}/${da.subject_init}`,
        action: 'update',
        kind: 'alert',
        key: `${label} / ${da.subject_init}`,
        monitor: label,
        id: a.id,
        before,
        after,
        changed,
        depends_on: [],
        call: { method: 'PUT', path: idPath('Alert', a.id), body: alertBody(da, destIds, after, monitorId) },
        ...(a.subject_init !== da.subject_init
          ? { note: { subject_changed_from: a.subject_init, ...(guessed?.[i] ? { paired_by: guessed[i] } : {}) } }
          : {}),
        source: da.source,
      });
    }
  }

  /** The creates of one monitor's unpaired declared alerts; returns how many. */
  private creates({ label, declared, partner, monitorId }: Pairing): number {
    const ctx = this.ctx;
    let creates = 0;
    for (let i = 0; i < declared.length; i++) {
      if (partner[i] !== undefined) continue;
      creates++;
      const da = declared[i]!;
      const destIds = this.resolveDestinations(da, label);
      const after = desiredAlertFields(da, destIds, ctx.destLabel);
      const given: string[] = ['subject_init', 'subject_term', 'timeout', 'alert_destinations'];
      for (const f of ['message_init', 'message_term', 'down_only', 'repeat'] as const) {
        if (da[f] !== undefined) given.push(f);
      }
      ctx.changes.push({
        ref: `alert:${label}/${da.subject_init}`,
        action: 'create',
        kind: 'alert',
        key: `${label} / ${da.subject_init}`,
        monitor: label,
        id: null,
        before: null,
        after,
        changed: ALERT_FIELDS.filter((f) => given.includes(f)),
        depends_on: [],
        call: { method: 'POST', path: '/v1/Config/Alert/', body: alertBody(da, destIds, after, monitorId) },
        source: da.source,
      });
    }
    return creates;
  }

  /** Live alerts no declared one took: deleted, healed as copies, or left alone (and counted). */
  private leftovers(p: Pairing, creates: number): void {
    const ctx = this.ctx;
    const { label, liveMonitor, owned, declared, partner, unmatchedLive } = p;
    // The live alert each declared one keeps, by its live subject: an unmatched live alert with the
    // same subject is an extra copy of it (two applies raced).
    const kept = new Map<string, { a: Alert; da: DesiredAlert }>();
    for (let i = 0; i < declared.length; i++) {
      const a = partner[i];
      if (a !== undefined && !kept.has(a.subject_init)) kept.set(a.subject_init, { a, da: declared[i]! });
    }
    if (owned) this.oldAndNewBothLive(label, declared, partner, unmatchedLive);
    const leftAlone: Alert[] = [];
    const differing = new Set<string>();
    for (const a of unmatchedLive) {
      // Alerts of other types cannot be created through the API: deleting one could never be undone.
      if (isOtherType(a)) {
        if (owned) this.otherTypeKept++;
        else ctx.unmanaged.alerts++;
        continue;
      }
      if (this.blockedAlerts.size > 0 && this.blockedAlerts.has(a.id)) continue;
      const copyOf = kept.get(a.subject_init);
      if (!owned) {
        // On a monitor this configuration does not own, only an exact copy of the alert it declares
        // is surely a duplicate; the rest is somebody else's.
        if (copyOf === undefined) {
          ctx.unmanaged.alerts++;
          leftAlone.push(a);
          continue;
        }
        if (!sameLiveAlert(a, copyOf.a)) {
          if (!differing.has(a.subject_init)) {
            differing.add(a.subject_init);
            const copies = (ctx.alertsByMonitor.get(liveMonitor!.id) ?? NO_ALERTS).filter((x) => x.subject_init === a.subject_init);
            ctx.problem(
              located(copyOf.da.source, `${alertContext(label, copyOf.da)}: ${ctx.describe(liveMonitor!)} has ${copies.length} alerts with this subject that differ (ids ${ids(
                copies,
              )}); delete all but one in the service`),
            );
          }
          continue;
        }
      }
      ctx.changes.push({
        ref: `alert:${label}/${a.subject_init}`,
        action: 'delete',
        kind: 'alert',
        key: `${label} / ${a.subject_init}`,
        monitor: label,
        id: a.id,
        before: liveAlertFields(a, ctx.destLabel),
        after: null,
        changed: [],
        depends_on: [],
        call: { method: 'DELETE', path: idPath('Alert', a.id) },
        ...(copyOf !== undefined ? { note: { duplicate_of: copyOf.a.id } } : {}),
      });
    }
    // The rule that pairs a lone leftover on a monitor this configuration owns, as a hint where it does not.
    if (!owned && creates === 1 && leftAlone.length === 1) {
      const da = declared[partner.indexOf(undefined)]!;
      const old = leftAlone[0]!;
      ctx.warnings.push(
        `alert ${q(`${label} / ${da.subject_init}`)}: monitor ${q(label)} also has alert ${q(old.subject_init)} (id ${old.id}), which this plan leaves alone; ` +
          `if it is this alert under an earlier subject, add ${q(old.subject_init)} to previous_subjects to update it instead of adding a second alert`,
      );
    }
  }

  /**
   * Previous subjects work as previous labels do: when a declared alert found its live alert by its
   * subject while an old subject names another live alert this plan would delete, the user decides.
   */
  private oldAndNewBothLive(
    label: string,
    declared: readonly DesiredAlert[],
    partner: readonly (Alert | undefined)[],
    unmatchedLive: readonly Alert[],
  ): void {
    for (let i = 0; i < declared.length; i++) {
      const da = declared[i]!;
      const a = partner[i];
      if (a === undefined || a.subject_init !== da.subject_init || !da.previous_subjects?.length) continue;
      for (const prev of da.previous_subjects) {
        if (prev === da.subject_init || declared.some((x) => x.subject_init === prev)) continue;
        const old = unmatchedLive.filter((x) => x.subject_init === prev && !isOtherType(x));
        if (old.length === 0) continue;
        for (const x of old) this.blockedAlerts.add(x.id);
        this.ctx.problem(
          located(da.source, `${alertContext(label, da)}: monitor ${q(label)} has both alert ${q(a.subject_init)} (id ${a.id}) and ${old
            .map((x) => `alert ${q(x.subject_init)} (id ${x.id})`)
            .join(', ')}, named by previous_subjects; changing the subject is not possible and deleting the old one would lose it. ` +
            `Delete or change one of them in the service, or remove ${q(prev)} from previous_subjects to have it deleted`),
        );
      }
    }
  }

  /**
   * A live alert's destinations are what the declared labels resolve to, and resolving them would
   * report nothing (no unknown or ambiguous label, no unsubscribed destination not yet warned of).
   * No side effects, no allocations.
   */
  private destinationsQuietlyEqual(da: DesiredAlert, a: Alert): boolean {
    const labels = da.alert_destinations;
    const liveIds = a.alert_destinations;
    if (labels.length > 8 || liveIds.length > 8) return false;
    // Distinct labels resolve to distinct destinations: equal sets once every resolved id is live
    // and the counts of distinct entries agree.
    let distinctLabels = 0;
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i]!;
      if (labels.indexOf(label) !== i) continue;
      distinctLabels++;
      const cands = this.ctx.destsByLabel.get(label);
      if (cands === undefined || cands.length !== 1) return false;
      const d = cands[0]!;
      if ((!d.subscribed && !this.warnedUnsubscribed.has(d.id)) || !liveIds.includes(d.id)) return false;
    }
    let distinctIds = 0;
    for (let i = 0; i < liveIds.length; i++) if (liveIds.indexOf(liveIds[i]!) === i) distinctIds++;
    return distinctIds === distinctLabels;
  }

  /**
   * What planAlerts would find for most monitors, decided without its side effects: the declared
   * and live alerts have the same subjects in the same order (so they pair by position), all of
   * type up-down, equal in every field, with nothing to report. Such a monitor plans nothing.
   */
  alertsQuietlyUnchanged(declared: readonly DesiredAlert[], liveAlerts: readonly Alert[]): boolean {
    if (declared.length !== liveAlerts.length || hasRepeatedSubject(declared)) return false;
    for (let i = 0; i < declared.length; i++) {
      const da = declared[i]!;
      const a = liveAlerts[i]!;
      if (da.subject_init !== a.subject_init || (a.type !== 'up-down' && a.type !== '')) return false;
      if (!alertFieldsUnchanged(a, da) || !this.destinationsQuietlyEqual(da, a)) return false;
    }
    return true;
  }
}
