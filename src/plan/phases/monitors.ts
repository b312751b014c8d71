/**
 * Phase 2, monitor identity: which live monitor each declared one is (by label, then by previous
 * label), which copies heal, and which labels stop the plan (another owner's or another type's
 * monitor, copies not all ours, old and new label both live). Also resolves the labels references
 * use (group members, top-level alerts) to live monitors the plan leaves as they are.
 */
import type { DesiredMonitor, SourceRef } from '../../model/desired.js';
import { OWNER_META_KEY, type Monitor } from '../../model/live.js';
import { matchesAny } from '../../util/glob.js';
import type { PlanContext } from './context.js';
import { didYouMean, ids, keeperOf, located, q } from './util.js';

export function matchMonitors(ctx: PlanContext): void {
  const heal = copyHealer(ctx);
  matchExactLabels(ctx, heal);
  oldAndNewBothLive(ctx);
  matchPreviousLabels(ctx, heal);
}

/**
 * Copies of a declared monitor (same label, all with this owner's marker: two applies raced) heal:
 * the healer returns the copy kept (the one alerts and groups use most, else the lowest id) and
 * records the others in ctx.duplicateOf; null when not every copy carries the marker.
 */
function copyHealer(ctx: PlanContext): (cands: readonly Monitor[]) => Monitor | null {
  // How many alerts and live groups each monitor has; the groups counted on first need.
  let memberships: Map<string, number> | null = null;
  const usage = (m: Monitor): number => {
    if (memberships === null) {
      memberships = new Map();
      for (const g of ctx.live.groups) for (const id of new Set(g.members.map((x) => x.id))) memberships.set(id, (memberships.get(id) ?? 0) + 1);
    }
    return (ctx.alertsByMonitor.get(m.id)?.length ?? 0) + (memberships.get(m.id) ?? 0);
  };
  return (cands) => {
    for (const m of cands) if (ctx.classOf(m) !== 'managed') return null;
    const keeper = keeperOf(cands, usage);
    for (const m of cands) if (m !== keeper) ctx.duplicateOf.set(m.id, keeper);
    return keeper;
  };
}

/** Declared labels to live monitors; live monitors a label names ambiguously go to ctx.blocked (a problem, never deleted). */
function matchExactLabels(ctx: PlanContext, healCopies: (cands: readonly Monitor[]) => Monitor | null): void {
  for (const d of ctx.declared.values()) {
    const dm = d.dm;
    const cands = ctx.monitorsByLabel.get(dm.label);
    if (cands === undefined) continue;
    const only = cands.length === 1 ? ctx.classOf(cands[0]!) : null;
    if (only === 'managed' || only === 'unmanaged') {
      d.match = { live: cands[0]!, renamedFrom: null };
      ctx.takenBy.set(cands[0]!.id, dm);
      continue;
    }
    const keeper = cands.length > 1 ? healCopies(cands) : null;
    if (keeper !== null) {
      d.match = { live: keeper, renamedFrom: null };
      ctx.takenBy.set(keeper.id, dm);
      continue;
    }
    for (const m of cands) ctx.blocked.add(m.id);
    const others = cands.filter((m) => ctx.classOf(m) === 'other');
    const foreign = cands.filter((m) => ctx.classOf(m) === 'foreign');
    if (others.length > 0) {
      ctx.problem(
        located(dm.source, `monitor ${q(dm.label)}: the account has a monitor of type ${others
          .map((m) => `${m.type} (id ${m.id})`)
          .join(', ')} with this label; monsync manages only smtp monitors, so rename one of them`),
      );
    } else if (foreign.length > 0) {
      ctx.problem(
        located(dm.source, `monitor ${q(dm.label)} conflicts with ${foreign
          .map((m) => `${ctx.describe(m)}, which is managed by ${ctx.foreignOwner(m)}`)
          .join('; ')}; this configuration's owner is ${q(ctx.owner)}`),
      );
    } else {
      // One candidate that is ours or unmanaged was matched above, and copies that are all ours
      // heal: these are several, not all ours.
      ctx.problem(
        located(dm.source, `monitor ${q(dm.label)}: the account has ${cands.length} monitors with this label (ids ${ids(
          cands,
        )}); rename or delete all but one in the service`),
      );
    }
  }
}

/**
 * A monitor found by its label while one of its previous labels also names a monitor that this plan
 * would delete: was it renamed, or is the old one still wanted? Guessing would delete a monitor and
 * its history, so the user decides.
 */
function oldAndNewBothLive(ctx: PlanContext): void {
  for (const { dm, match } of ctx.declared.values()) {
    if (dm.previous_labels.length === 0 || match === null) continue;
    for (const prev of dm.previous_labels) {
      if (prev === dm.label || ctx.declared.has(prev)) continue;
      const doomed = (ctx.monitorsByLabel.get(prev) ?? []).filter(
        (m) => ctx.classOf(m) === 'managed' || (ctx.classOf(m) === 'unmanaged' && ctx.prune),
      );
      if (doomed.length === 0) continue;
      ctx.problem(
        located(dm.source, `monitor ${q(dm.label)}: the account has both ${ctx.describe(match.live)} and ${doomed
          .map((m) => ctx.describe(m))
          .join(', ')}, named by previous_labels; renaming is not possible and deleting the old one would lose its history. ` +
          `Delete or rename one of them in the service, or remove ${q(prev)} from previous_labels to have it deleted`),
      );
    }
  }
}

/** Previous labels only after every exact label has claimed its monitor: exact wins. */
function matchPreviousLabels(ctx: PlanContext, healCopies: (cands: readonly Monitor[]) => Monitor | null): void {
  const claimedByPrevious = new Map<string, DesiredMonitor>();
  for (const d of ctx.declared.values()) {
    const dm = d.dm;
    if (dm.previous_labels.length === 0 || d.match !== null || (ctx.monitorsByLabel.get(dm.label)?.length ?? 0) > 0) continue;
    for (const prev of dm.previous_labels) {
      if (prev === dm.label) continue;
      const cands = ctx.monitorsByLabel.get(prev) ?? [];
      const smtp = cands.filter((m) => ctx.classOf(m) !== 'other');
      for (const m of cands.filter((c) => ctx.classOf(c) === 'other')) {
        ctx.warnings.push(
          `monitor ${q(dm.label)}: previous label ${q(prev)} belongs to a ${m.type} monitor (id ${m.id}); not treated as a rename`,
        );
      }
      if (smtp.length === 0) continue;
      const foreign = smtp.filter((m) => ctx.classOf(m) === 'foreign');
      if (foreign.length > 0) {
        ctx.problem(
          located(dm.source, `monitor ${q(dm.label)}: previous label ${q(prev)} names ${foreign
            .map((m) => `${ctx.describe(m)}, which is managed by ${ctx.foreignOwner(m)}`)
            .join('; ')}; this configuration's owner is ${q(ctx.owner)}`),
        );
        break;
      }
      // Copies already sorted out by a declared label (kept or to be deleted) are that label's.
      const settled = smtp.find((m) => ctx.takenBy.has(m.id) || ctx.duplicateOf.has(m.id));
      let m: Monitor;
      if (smtp.length === 1 || settled !== undefined) {
        m = settled === undefined ? smtp[0]! : (ctx.duplicateOf.get(settled.id) ?? settled);
      } else {
        const keeper = healCopies(smtp);
        if (keeper === null) {
          ctx.problem(
            located(dm.source, `monitor ${q(dm.label)}: previous label ${q(prev)} matches ${smtp.length} monitors (ids ${ids(
              smtp,
            )}); rename or delete all but one in the service`),
          );
          for (const x of smtp) ctx.blocked.add(x.id);
          break;
        }
        m = keeper;
      }
      if (ctx.takenBy.has(m.id)) {
        const other = claimedByPrevious.get(m.id);
        if (other) {
          ctx.problem(
            `monitors ${q(other.label)} and ${q(dm.label)} both name ${ctx.describe(m)} as a previous label; keep it in one of them`,
          );
          break;
        }
        continue; // claimed by its exact label
      }
      d.match = { live: m, renamedFrom: prev };
      ctx.takenBy.set(m.id, dm);
      claimedByPrevious.set(m.id, dm);
      break;
    }
  }
}

/**
 * Resolves a monitor label used by a reference (top-level alert, group member) that no declared
 * monitor has to a live monitor the plan does not change. The context of a problem is made only
 * when there is one.
 */
export function resolveLiveMonitor(
  ctx: PlanContext,
  label: string,
  context: () => string,
  where: () => SourceRef | undefined = () => undefined,
): Monitor | null {
  const problem = (message: string) => ctx.problem(located(where(), `${context()}: ${message}`));
  if (matchesAny(ctx.ignore, label)) {
    problem(`monitor ${q(label)} matches settings.ignore`);
    return null;
  }
  const cands = ctx.monitorsByLabel.get(label) ?? [];
  if (cands.length === 0) {
    const known = [...ctx.declared.keys(), ...ctx.monitorsByLabel.keys()];
    problem(`no monitor ${q(label)} in the configuration or the account${didYouMean(label, known)}`);
    return null;
  }
  if (cands.length > 1) {
    problem(`the account has ${cands.length} monitors labelled ${q(label)} (ids ${ids(cands)}); rename or delete all but one in the service`);
    return null;
  }
  const m = cands[0]!;
  const renamer = ctx.takenBy.get(m.id);
  if (renamer) {
    problem(`${ctx.describe(m)} is renamed to ${q(renamer.label)} by this configuration; refer to it by its new label`);
    return null;
  }
  if (ctx.classOf(m) === 'managed') {
    problem(`${ctx.describe(m)} is marked ${OWNER_META_KEY}: ${q(ctx.owner)} but not declared, so this plan would delete it; declare it or drop the reference`);
    return null;
  }
  return m;
}
