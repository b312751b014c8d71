/**
 * Phase 4, monitor changes: creates (with a near miss noted), updates of matched monitors (fields,
 * adoption, rename), and deletes of live SMTP monitors nothing declared took: managed ones, copies
 * that heal, and with --prune unmanaged ones nothing refers to. A delete names the alerts it takes
 * with it, and those the API cannot create again. Also counts what is left alone.
 */
import { OPTIONAL_MONITOR_FIELDS, REQUIRED_MONITOR_FIELDS } from '../../model/desired.js';
import type { Monitor } from '../../model/live.js';
import type { Change, ChangeEffects, ChangeNote, NearMiss } from '../types.js';
import type { PlanContext } from './context.js';
import { byId, idPath, inIdOrder, isOtherType, keeperOf, located, NO_ALERTS, q, uniq } from './util.js';
import {
  desiredMonitorFields,
  liveMonitorFields,
  MONITOR_FIELDS,
  monitorUnchanged,
  sameValue,
  wireMonitorValue,
  type Fields,
} from './values.js';

/**
 * A label as a person sees it: Unicode compatibility form (NFC against NFD `café`, a no-break or
 * ideographic space as a space), without whitespace of any kind at either end, in lower case.
 */
const fold = (label: string): string => label.normalize('NFKC').trim().toLowerCase();

/** How two labels of one fold differ: each way that, set aside with the others, still tells them apart. */
function differsIn(a: string, b: string): NearMiss['differs'] {
  const parts: string[] = [];
  if (a.normalize('NFKC').trim() !== b.normalize('NFKC').trim()) parts.push('case');
  if (a.normalize('NFKC').toLowerCase() !== b.normalize('NFKC').toLowerCase()) parts.push('spaces');
  if (a.trim().toLowerCase() !== b.trim().toLowerCase()) parts.push('Unicode form');
  // Form and case (or spaces) can hide in each other (`CAFÉ` against `cafe\u0301`): all were needed.
  if (parts.length === 0) parts.push('Unicode form');
  return (parts.length < 3 ? parts.join(' and ') : 'case, spaces and Unicode form') as NearMiss['differs'];
}

/**
 * Unmanaged monitors nothing declared took, by their label folded (case, surrounding spaces, Unicode form): built
 * when a plan first creates a monitor, and asked for near misses.
 */
class NearMisses {
  private folded: Map<string, Monitor[]> | null = null;

  constructor(private readonly ctx: PlanContext) {}

  /** An unmanaged live monitor whose label differs from `label` only in case, surrounding spaces or Unicode form. */
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
    return { label: m.label, id: m.id, differs: differsIn(m.label, label) };
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
      for (const f of OPTIONAL_MONITOR_FIELDS) {
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

/** Labels shorter than this are never taken for a label the service cut short. */
export const CUT_SHORT_MIN = 16;

/**
 * A managed monitor nothing declared took, that looks like the result of a create whose label the
 * service cut short (issue 23): its label (of CUT_SHORT_MIN characters or more) is the start of a
 * declared label that matched nothing, and it has no alerts and no groups (apply starts none after
 * such a create). Deleting it and creating the declared one again would repeat on every apply, each
 * time deleting a monitor and its history; the plan stops instead, naming both. True when it did.
 */
function cutShortOf(ctx: PlanContext, m: Monitor): boolean {
  if (m.label.length < CUT_SHORT_MIN || m.alerts.length > 0 || (m.groups?.length ?? 0) > 0) return false;
  if ((ctx.alertsByMonitor.get(m.id)?.length ?? 0) > 0) return false;
  const unmatched = unmatchedLabels(ctx);
  // Labels starting with m.label follow it directly in sorted order.
  let lo = 0;
  let hi = unmatched.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (unmatched[mid]! <= m.label) lo = mid + 1;
    else hi = mid;
  }
  const longer = unmatched[lo];
  if (longer === undefined || !longer.startsWith(m.label)) return false;
  const d = ctx.declared.get(longer)!;
  ctx.problem(
    located(d.dm.source, `monitor ${q(longer)}: the account has ${ctx.describe(m)}, marked as this configuration's, without alerts or groups, ` +
      `whose label is the start of this one: the service may have cut the label short when it was created. ` +
      `Declare it as ${q(m.label)} (the service keeps no longer label), or delete ${q(m.label)} in the service`),
  );
  ctx.blocked.add(m.id);
  return true;
}

const unmatchedCache = new WeakMap<PlanContext, string[]>();
/** Declared labels that matched no live monitor, sorted (code unit order); made once per plan, on first need. */
function unmatchedLabels(ctx: PlanContext): string[] {
  let out = unmatchedCache.get(ctx);
  if (out === undefined) {
    out = [];
    for (const d of ctx.declared.values()) if (d.match === null) out.push(d.dm.label);
    out.sort();
    unmatchedCache.set(ctx, out);
  }
  return out;
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
      if (remove && c === 'managed' && cutShortOf(ctx, m)) remove = false;
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
    const note: ChangeNote = c === 'managed' ? {} : { pruned: true };
    const effects: ChangeEffects = { cascade_alerts: cascade };
    // Named in the plan, so a reviewer sees which alerts go (the count alone says little).
    if (liveAlerts.length > 0) note.cascade_subjects = liveAlerts.map((a) => a.subject_init);
    const keeper = ctx.duplicateOf.get(m.id);
    if (keeper !== undefined) note.duplicate_of = keeper.id;
    const groups = memberOf.get(m.id);
    if (groups) note.member_of = groups.sort();
    // The service deletes a monitor's alerts with it, and alerts of other types can never be made again.
    const lost = liveAlerts.filter(isOtherType);
    if (lost.length > 0) effects.other_type_alerts = lost.map((a) => ({ id: a.id, type: a.type, subject_init: a.subject_init }));
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
      ...(Object.keys(note).length > 0 ? { note } : {}),
      effects,
    };
    ctx.monitorDeletes.push(change);
    ctx.changes.push(change);
  }
}
