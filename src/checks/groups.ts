/**
 * group/empty: a declared group with no members. `monitors: []` says so in the configuration;
 * a group that leaves `monitors` out keeps the members it has in the account (docs/semantics.md, "Group
 * membership"), so only the account tells whether it has any. Ignored monitors stay in a group whose
 * members are listed (docs/semantics.md, "Ignore wins over membership"), so with `settings.ignore` globs an
 * empty list is judged against the account too.
 */
import type { DesiredGroup, DesiredState } from '../model/desired.js';
import type { Group } from '../model/live.js';
// One glob dialect for settings.ignore everywhere (the planner's too).
import { matchesAny } from '../util/glob.js';
import type { Account } from './account.js';
import { q } from './items.js';
import type { Hit } from './types.js';

const hit = (group: DesiredGroup, message: string): Hit => ({ subject: { kind: 'group', group }, message });

/** Offline: `monitors: []` where no ignored monitor can be left in the group. */
export function emptyGroups(desired: DesiredState): Hit[] {
  if (desired.settings.ignore.length > 0) return [];
  return desired.groups.filter((g) => g.monitors?.length === 0).map((g) => hit(g, `group ${q(g.name)} has no members`));
}

/** The live copies of a declared group: by its name, else by the first previous name the account holds. */
function liveCopies(group: DesiredGroup, account: Account): readonly Group[] {
  for (const name of [group.name, ...group.previous_names]) {
    const copies = account.groupsByName.get(name);
    if (copies?.length) return copies;
  }
  return [];
}

/** With the account: groups whose membership is not listed, and empty lists where ignore globs are set. */
export function emptyGroupsInAccount(desired: DesiredState, account: Account): Hit[] {
  const out: Hit[] = [];
  const globs = desired.settings.ignore;
  for (const group of desired.groups) {
    const copies = liveCopies(group, account);
    if (group.monitors === null) {
      if (copies.length === 0) out.push(hit(group, `group ${q(group.name)} does not list its monitors and is not in the account yet: it is created with no members`));
      else if (copies.every((c) => c.members.length === 0)) out.push(hit(group, `group ${q(group.name)} does not list its monitors and has none in the account`));
      continue;
    }
    if (group.monitors.length > 0 || globs.length === 0) continue;
    const keepsIgnored = copies.some((c) =>
      c.members.some((m) => {
        const label = m.label ?? account.monitorsById.get(m.id)?.label;
        return label !== undefined && matchesAny(globs, label);
      }),
    );
    if (!keepsIgnored) out.push(hit(group, `group ${q(group.name)} has no members`));
  }
  return out;
}
