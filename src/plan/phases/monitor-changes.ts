/**
 * Phase 4, monitor changes: creates (with a near miss noted), updates of matched monitors (fields,
 * adoption, rename), and deletes of live SMTP monitors nothing declared took: managed ones, copies
 * that heal, and with --prune unmanaged ones nothing refers to. A delete names the alerts it takes
 * with it, and those the API cannot create again. Also counts what is left alone.
 */
import { REQUIRED_MONITOR_FIELDS } from '../../model/desired.js';
import type { Monitor } from '../../model/live.js';
import type { Change, ChangeNote, NearMiss } from '../types.js';
import type { PlanContext } from './context.js';
import { byId, idPath, inIdOrder, isOtherType, keeperOf, located, NO_ALERTS, q, uniq } from './util.js';
import {
  desiredMonitorFields,
  liveMonitorFields,
  MONITOR_FIELDS,
  monitorUnchanged,
  sameValue,
  SPEC_OPTIONAL,
  wireMonitorValue,
  type Fields,
} from './values.js';

const fold = (label: string): string => label.trim().toLowerCase();

/**
 * Unmanaged monitors nothing declared took, by their label folded (case, surrounding spaces): built
 * when a plan first creates a monitor, and asked for near misses.
 */
class NearMisses {
  private folded: Map<string, Monitor[]> | null = null;

  constructor(private readonly ctx: PlanContext) {}

  /** An unmanaged live monitor whose label differs from `label` only in case or surrounding spaces. */
  find(label: string): NearMiss | undefined {
    const ctx = this.ctx;
    let folded = this.folded;
    if (folded === null) {
      folded = this.folded = new Map();
      for (const m of ctx.live.monitors) {
        if (ctx.classOf(m) !== 'unmanaged' || ctx.takenBy.has(m.id) || ctx.blocked.has(m.id)) continue;
        const k = fold(m.label);
        const list = folded.get(k);
        if (list) list.push(m);
        else folded.set(k, [m]);
      }
    }
    const cands = folded.get(fold(label))?.filter((m) => m.label !== label);
    if (cands === undefined || cands.length === 0) return undefined;
    const m = keeperOf(cands);
    const differs = m.label.trim() === label.trim() ? 'spaces' : m.label.toLowerCase() === label.toLowerCase() ? 'case' : 'case and spaces';
    return { label: m.label, id: m.id, differs };
  }
}

/** Creates and updates of the declared monitors. */
export function planMonitorChanges(ctx: PlanContext): void {
  const nearMisses = new NearMisses(ctx);
  for (const { dm, match } of ctx.declared.values()) {
    // Most declared monitors match their live one exactly: find that out without building the
    // before and after values.
    if (match && monitorUnchanged(match.live, dm, ctx.owner)) continue;
    const after = desiredMonitorFields(dm, ctx.owner);
    if (!match) {
      // The required fields always, in the table's order, then the optional ones given.
      const given: string[] = ['label', ...REQUIRED_MONITOR_FIELDS];
      const body: Fields = { type: 'smtp', label: dm.label };
      for (const f of REQUIRED_MONITOR_FIELDS) body[f] = dm.spec[f];
      for (const f of SPEC_OPTIONAL) {
        const v = dm.spec[f];
        // An attachment of null is "none", which is what omitting it means on create.
        if (v === undefined || v === null) continue;
        given.push(f);
        body[f] = v;
      }
      given.push('meta');
      body.meta = after.meta;
      const near = nearMisses.find(dm.label);
      if (near !== undefined && ctx.prune && !ctx.referenced.has(near.id)) {
        // --prune would delete the very monitor the configuration most likely means, with its history.
        ctx.blocked.add(near.id);
        ctx.problem(
          located(dm.source, `monitor ${q(dm.label)}: the account has unmanaged monitor ${q(near.label)} (id ${near.id}), whose label differs only in ${near.differs}, ` +
            `and --prune would delete it while creating ${q(dm.label)}. To adopt it, use its exact label or add ${q(near.label)} to previous_labels; ` +
            'otherwise delete or rename it in the service'),
        );
      }
      ctx.changes.push({
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
        ...(near !== undefined ? { note: { near_miss: near } } : {}),
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
    if (ctx.classOf(m) === 'unmanaged') note.adopt = true;
    if (match.renamedFrom !== null) note.renamed_from = m.label;
    ctx.changes.push({
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
}

/** Deletes of live monitors nothing declared took, in id order; counts the ones left alone. */
export function planMonitorDeletes(ctx: PlanContext): void {
  const doomed: Monitor[] = [];
  let referencedKept = 0;
  for (const m of ctx.live.monitors) {
    const c = ctx.classOf(m);
    // Monitors of other types are never taken by a declared one.
    if (c !== 'other' && ctx.takenBy.has(m.id)) continue;
    // A label in question (a problem already says so) is never settled by a delete.
    if (ctx.blocked.size > 0 && ctx.blocked.has(m.id)) continue;
    let remove = false;
    if (c === 'other') {
      ctx.unmanaged.other_type_monitors++;
    } else {
      remove = c === 'managed' || (c === 'unmanaged' && ctx.prune && !ctx.referenced.has(m.id));
      if (remove) {
        doomed.push(m);
      } else {
        ctx.unmanaged.monitors++;
        if (c === 'foreign') ctx.unmanaged.foreign_monitors!++;
        // Named by the configuration: --prune keeps it (counted without --prune too, for the hint).
        else if (c === 'unmanaged' && ctx.referenced.has(m.id)) referencedKept++;
      }
    }
    // Undeclared alerts on monitors left alone: neither declared, deleted nor given top-level alerts.
    if (!remove && !(ctx.liveHomes.size > 0 && ctx.liveHomes.has(m.id))) ctx.unmanaged.alerts += ctx.alertsByMonitor.get(m.id)?.length ?? 0;
  }
  if (referencedKept > 0) ctx.unmanaged.referenced_monitors = referencedKept;
  // Deletes in id order; sorting only them gives the order sorting the whole account would.
  if (!inIdOrder(doomed)) doomed.sort(byId);
  // The groups each doomed monitor leaves: said on its delete (what is lost besides the monitor).
  const memberOf = new Map<string, string[]>();
  if (doomed.length > 0) {
    const ids = new Set(doomed.map((m) => m.id));
    for (const g of ctx.live.groups) {
      for (const member of g.members) {
        if (!ids.has(member.id)) continue;
        const names = memberOf.get(member.id) ?? [];
        if (!names.includes(g.name)) names.push(g.name);
        memberOf.set(member.id, names);
      }
    }
  }
  for (const m of doomed) {
    const c = ctx.classOf(m);
    const liveAlerts = ctx.alertsByMonitor.get(m.id) ?? NO_ALERTS;
    const cascade = uniq([...liveAlerts.map((a) => a.id), ...m.alerts]).length;
    const note: ChangeNote = c === 'managed' ? { cascade_alerts: cascade } : { pruned: true, cascade_alerts: cascade };
    // Named in the plan, so a reviewer sees which alerts go (the count alone says little).
    if (liveAlerts.length > 0) note.cascade_subjects = liveAlerts.map((a) => a.subject_init);
    const keeper = ctx.duplicateOf.get(m.id);
    if (keeper !== undefined) note.duplicate_of = keeper.id;
    const groups = memberOf.get(m.id);
    if (groups) note.member_of = groups.sort();
    // The service deletes a monitor's alerts with it, and alerts of other types can never be made again.
    const lost = liveAlerts.filter(isOtherType);
    if (lost.length > 0) note.other_type_alerts = lost.map((a) => ({ id: a.id, type: a.type, subject_init: a.subject_init }));
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
      note,
    };
    ctx.monitorDeletes.push(change);
    ctx.changes.push(change);
  }
}
