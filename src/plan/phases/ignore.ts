/**
 * Phase 1, ignore: `settings.ignore` takes monitors (with their alerts) and groups out of the
 * plan's view. Declaring an ignored label or name is a problem; what was ignored is counted, and the
 * rest of the planner sees only the filtered account.
 */
import type { DesiredState } from '../../model/desired.js';
import type { LiveState } from '../../model/live.js';
import { filterIgnored } from '../fingerprint.js';
import { matchesAny } from '../../util/glob.js';
import { located, q } from './util.js';

export interface IgnoreOutcome {
  /** The account without what settings.ignore matches. */
  live: LiveState;
  /** Live monitors matched by settings.ignore (they may still be members of groups). */
  ignoredMonitorIds: ReadonlySet<string>;
  /** Ignored monitors and groups. */
  ignoredCount: number;
}

export function applyIgnore(desired: DesiredState, liveAll: LiveState, problem: (msg: string) => void): IgnoreOutcome {
  const ignore = desired.settings.ignore;
  const ignoredMonitorIds = new Set<string>();
  let ignoredGroups = 0;
  if (ignore.length > 0) {
    for (const dm of desired.monitors) {
      for (const l of [dm.label, ...dm.previous_labels]) {
        if (matchesAny(ignore, l)) problem(located(dm.source, `monitor ${q(dm.label)}: label ${q(l)} matches settings.ignore`));
      }
    }
    for (const dg of desired.groups) {
      for (const n of [dg.name, ...dg.previous_names]) {
        if (matchesAny(ignore, n)) problem(located(dg.source, `group ${q(dg.name)}: name ${q(n)} matches settings.ignore`));
      }
    }
    for (const m of liveAll.monitors) if (matchesAny(ignore, m.label)) ignoredMonitorIds.add(m.id);
    for (const g of liveAll.groups) if (matchesAny(ignore, g.name)) ignoredGroups++;
  }
  return { live: filterIgnored(liveAll, ignore), ignoredMonitorIds, ignoredCount: ignoredMonitorIds.size + ignoredGroups };
}
