/**
 * The planner: desired state + live state -> Plan. Pure: no I/O, and no clock unless `now` is absent.
 *
 * Identity is by name, never by position: monitors by label, groups by name, destinations by label,
 * alerts by their monitor plus subject_init. Renames are declared (previous_labels, previous_names,
 * previous_subjects) so that a rename keeps the live id, and with it alert history and membership.
 * Anything ambiguous or contradictory is a problem the user must fix; every problem is collected and
 * thrown together as one PlanError. The one exception is copies monsync itself could have made (two
 * applies racing): copies of a declared monitor that all carry this owner's marker, of a declared
 * group's name, or of an alert on a monitor this configuration owns (or exact copies of a declared
 * one elsewhere) heal: one is kept and the others are deleted (`note.duplicate_of`).
 * docs/semantics.md states every rule applied here; test/plan/semantics.test.ts pins each.
 *
 * This file only runs the phases (src/plan/phases/), in an order that matters: identities first,
 * then the references that keep unmanaged monitors from --prune, then changes, then the checks over
 * all changes. They share one PlanContext (indexes, findings, the problem and warning sink), so
 * problems and warnings come out in the order a reader meets them.
 */
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import { PLAN_FORMAT_VERSION, type Plan } from './types.js';
import { PlanError } from './errors.js';
import { fingerprintLive } from './fingerprint.js';
import { orderChanges, summarize } from './order.js';
import { placeTopLevelAlerts, planAlertChanges } from './phases/alerts.js';
import { PlanContext } from './phases/context.js';
import { matchGroups, planGroupChanges } from './phases/groups.js';
import { applyIgnore } from './phases/ignore.js';
import { planMonitorChanges, planMonitorDeletes } from './phases/monitor-changes.js';
import { matchMonitors } from './phases/monitors.js';
import { refuseAmbiguousDeletes, selectTargets, uniqueRefs } from './phases/refs.js';
import { noteLikelyRenames } from './phases/rename-hints.js';
import { uniq } from './phases/util.js';
import { globMatch } from '../util/glob.js';
import { plural } from '../util/plural.js';
import { closest } from '../util/suggest.js';

export { PlanError } from './errors.js';
export { pairAlerts, type AlertPairing } from './phases/alert-pairing.js';
export { compareIds } from './phases/util.js';
export { ALERT_FIELDS, MONITOR_FIELDS, desiredMonitorFields, liveMonitorFields, type MonitorField } from './phases/values.js';

export interface DiffOptions {
  /** Delete unmanaged monitors and undeclared groups; defaults to `settings.prune`. */
  prune?: boolean;
  /** Globs on keys: only matching changes (and what they need) are planned. */
  targets?: string[];
  /** Base URL of the account (no credentials). */
  target: string;
  now?: Date;
  /**
   * The live-state fingerprint (default true). False leaves `fingerprint` empty and saves hashing
   * the whole account, for a plan that is only shown as text: never saved, printed as JSON or
   * Markdown, or applied (writeSavedPlan refuses it).
   */
  fingerprint?: boolean;
}

/**
 * `--target` globs that match no monitor label or group name, declared or live: said as such (a
 * plan of such a glob has no changes, which must not read as "the account matches").
 */
function targetsMatchingNothing(ctx: PlanContext, desired: DesiredState, targets: readonly string[]): string[] {
  const names = new Set<string>();
  for (const dm of desired.monitors) names.add(dm.label);
  for (const dg of desired.groups) names.add(dg.name);
  for (const m of ctx.live.monitors) names.add(m.label);
  for (const g of ctx.live.groups) names.add(g.name);
  const out: string[] = [];
  for (const glob of targets) {
    if ([...names].some((n) => globMatch(glob, n))) continue;
    // A typo is a guess only for a name typed out, not for a pattern.
    const near = /[*?]/.test(glob) ? undefined : closest(glob, [...names]);
    out.push(
      `--target ${JSON.stringify(glob)} matches no monitor label or group name of the configuration or the account${
        near === undefined ? '' : `; did you mean ${JSON.stringify(near)}?`
      }`,
    );
  }
  return out;
}

export function diff(desired: DesiredState, liveAll: LiveState, options: DiffOptions): Plan {
  const { owner, ignore } = desired.settings;
  const prune = options.prune ?? desired.settings.prune;
  const targets = options.targets ?? [];
  const problems: string[] = [];

  const seen = applyIgnore(desired, liveAll, (msg) => problems.push(msg));
  const ctx = new PlanContext(desired, liveAll, seen, { owner, ignore, prune }, problems);
  matchMonitors(ctx);
  // References before deletes: an unmanaged monitor a top-level alert or a group names is never pruned.
  placeTopLevelAlerts(ctx, desired.alerts);
  matchGroups(ctx, desired);
  planMonitorChanges(ctx);
  planMonitorDeletes(ctx);
  planAlertChanges(ctx);
  planGroupChanges(ctx);
  refuseAmbiguousDeletes(ctx);
  if (problems.length > 0) throw new PlanError(uniq(problems));
  noteLikelyRenames(ctx.changes);

  const { changes, warnings } = ctx;
  uniqueRefs(changes);
  let planned = changes;
  if (targets.length > 0) {
    warnings.push(...targetsMatchingNothing(ctx, desired, targets));
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
    unmanaged: ctx.unmanaged,
    fingerprint: options.fingerprint === false ? '' : fingerprintLive(liveAll, ignore),
    warnings,
  };
}
