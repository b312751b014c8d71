/**
 * The group phases. Identity (before the monitor deletes: a member is a reference, and a referenced
 * unmanaged monitor is never pruned): each declared group's live group, by name then previous name,
 * copies that heal, the old-and-new rule of renames with --prune, and each group's declared members
 * resolved to ids. Changes: creates, updates (name, membership replaced, ignored members kept),
 * deletes of undeclared groups with --prune and of copies, and the order of monitor deletes after
 * the group updates that drop them.
 */
import type { DesiredGroup, DesiredState } from '../../model/desired.js';
import type { Group, GroupMember, Monitor } from '../../model/live.js';
import type { ChangeNote } from '../types.js';
import type { Match, Member, PlanContext } from './context.js';
import { resolveLiveMonitor } from './monitors.js';
import { byId, compareIds, distinct, idPath, inIdOrder, keeperOf, located, q, samePositions, uniq } from './util.js';
import type { Fields } from './values.js';

export function matchGroups(ctx: PlanContext, desired: DesiredState): void {
  for (const dg of desired.groups) {
    if (ctx.desiredGroups.has(dg.name)) ctx.problem(located(dg.source, `group ${q(dg.name)} is declared more than once`));
    else ctx.desiredGroups.set(dg.name, dg);
  }
  // Extra copies of a declared group (a group has no owner marker: its declared name makes every
  // copy this configuration's) go to ctx.groupDuplicateOf, with the copy kept (the lowest id).
  const healGroups = (cands: readonly Group[], dg: DesiredGroup): Group => {
    const keeper = keeperOf(cands);
    for (const g of cands) {
      if (g === keeper) continue;
      ctx.groupDuplicateOf.set(g.id, keeper);
      ctx.groupTaken.set(g.id, dg);
    }
    return keeper;
  };
  for (const dg of ctx.desiredGroups.values()) {
    const cands = ctx.groupsByName.get(dg.name) ?? [];
    if (cands.length === 0) continue;
    const g = cands.length === 1 ? cands[0]! : healGroups(cands, dg);
    ctx.groupMatches.set(dg, { live: g, renamedFrom: null });
    ctx.groupTaken.set(g.id, dg);
  }
  const groupClaimedByPrevious = new Map<string, DesiredGroup>();
  for (const dg of ctx.desiredGroups.values()) {
    if (ctx.groupMatches.has(dg) || (ctx.groupsByName.get(dg.name)?.length ?? 0) > 0) continue;
    for (const prev of dg.previous_names) {
      if (prev === dg.name) continue;
      const cands = ctx.groupsByName.get(prev) ?? [];
      if (cands.length === 0) continue;
      // Copies a declared name already sorted out are that name's; otherwise this name heals them.
      const settled = cands.find((x) => ctx.groupTaken.has(x.id));
      const g = settled !== undefined ? (ctx.groupDuplicateOf.get(settled.id) ?? settled) : cands.length === 1 ? cands[0]! : healGroups(cands, dg);
      if (ctx.groupTaken.has(g.id)) {
        const other = groupClaimedByPrevious.get(g.id);
        if (other) {
          ctx.problem(`groups ${q(other.name)} and ${q(dg.name)} both name group ${q(g.name)} (id ${g.id}) as a previous name; keep it in one of them`);
          break;
        }
        continue;
      }
      ctx.groupMatches.set(dg, { live: g, renamedFrom: prev });
      ctx.groupTaken.set(g.id, dg);
      groupClaimedByPrevious.set(g.id, dg);
      break;
    }
  }
  if (ctx.prune) oldAndNewBothLive(ctx);
  for (const dg of ctx.desiredGroups.values()) {
    if (dg.monitors !== null) ctx.desiredMembers.set(dg, resolveMembers(ctx, dg, dg.monitors));
  }
}

/**
 * The rule of previous_labels: the new name and an old one both live, the old one to be deleted
 * (by --prune, groups having no owner): only the user knows whether it is still wanted.
 */
function oldAndNewBothLive(ctx: PlanContext): void {
  for (const dg of ctx.desiredGroups.values()) {
    const match = ctx.groupMatches.get(dg);
    if (match === undefined || match.renamedFrom !== null) continue;
    for (const prev of dg.previous_names) {
      if (prev === dg.name || ctx.desiredGroups.has(prev)) continue;
      const doomed = (ctx.groupsByName.get(prev) ?? []).filter((g) => !ctx.groupTaken.has(g.id));
      if (doomed.length === 0) continue;
      for (const g of doomed) ctx.groupTaken.set(g.id, dg);
      ctx.problem(
        located(dg.source, `group ${q(dg.name)}: the account has both group ${q(match.live.name)} (id ${match.live.id}) and ${doomed
          .map((g) => `group ${q(g.name)} (id ${g.id})`)
          .join(', ')}, named by previous_names; renaming is not possible and --prune would delete the old one. ` +
          `Delete or rename one of them in the service, or remove ${q(prev)} from previous_names to have it deleted`),
      );
    }
  }
}

/** A declared group's members: declared monitors (live ids, or refs to their creates) and live ones by label. */
function resolveMembers(ctx: PlanContext, dg: DesiredGroup, labels: readonly string[]): Member[] {
  const members: Member[] = [];
  const context = (): string => `group ${q(dg.name)}`;
  for (const label of distinct(labels)) {
    const d = ctx.declared.get(label);
    if (d) {
      members.push({ id: d.match ? d.match.live.id : { $ref: `monitor:${d.dm.label}` }, label: d.dm.label });
      continue;
    }
    const where = () => ctx.positions?.groupMember(dg, labels.indexOf(label)) ?? dg.source;
    const m = resolveLiveMonitor(ctx, label, context, where);
    if (!m) continue;
    ctx.referenced.add(m.id);
    members.push({ id: m.id, label: m.label });
  }
  return members;
}

/** Group creates, updates and deletes; then monitor deletes wait for the group updates that drop them. */
export function planGroupChanges(ctx: PlanContext): void {
  const planner = new GroupPlanner(ctx);
  for (const dg of ctx.desiredGroups.values()) {
    const match = ctx.groupMatches.get(dg);
    if (dg.monitors === null && match !== undefined) {
      planner.renameOnly(dg, match);
      continue;
    }
    const members = ctx.desiredMembers.get(dg) ?? [];
    if (match && match.live.name === dg.name && planner.sameMembers(match.live, members)) continue;
    if (!match) planner.create(dg, members);
    else planner.update(dg, match, members);
  }
  planner.prune();
  planner.deleteCopies();
  // A monitor leaves its groups (by their replace) before it is deleted.
  for (const c of ctx.monitorDeletes) c.depends_on = planner.removalsByMonitor.get(c.id!) ?? [];
  if (ctx.duplicateOf.size > 0) refuseCopiesInUndeclaredGroups(ctx);
}

class GroupPlanner {
  /** Refs of the group updates that drop each monitor. */
  readonly removalsByMonitor = new Map<string, string[]>();
  // Which group last listed an id, live and desired: one pair of maps for all groups instead of
  // two sets per group, for the common answer "no change".
  private readonly liveMark = new Map<string, number>();
  private readonly desiredMark = new Map<string, number>();
  private groupNo = 0;
  private readonly ignoring: boolean;
  // Needed only for groups that change.
  private monitorById: Map<string, Monitor> | null = null;

  constructor(private readonly ctx: PlanContext) {
    this.ignoring = ctx.ignoredMonitorIds.size > 0;
  }

  private monitorOf(id: string): Monitor | undefined {
    if (this.monitorById === null) this.monitorById = new Map(this.ctx.live.monitors.map((m) => [m.id, m]));
    return this.monitorById.get(id);
  }

  readonly memberLabel = (member: { id: string; label: string | null }): string => this.monitorOf(member.id)?.label ?? member.label ?? member.id;

  /** The live group's visible members are exactly the declared ones (ignored members aside). */
  sameMembers(live: Group, members: readonly Member[]): boolean {
    const ignoring = this.ignoring;
    const ignored = this.ctx.ignoredMonitorIds;
    if (!ignoring && samePositions(live.members, members)) return true;
    const groupNo = ++this.groupNo;
    for (const mem of live.members) {
      if (!ignoring || !ignored.has(mem.id)) this.liveMark.set(mem.id, groupNo);
    }
    for (const m of members) {
      if (typeof m.id !== 'string' || this.liveMark.get(m.id) !== groupNo) return false;
      this.desiredMark.set(m.id, groupNo);
    }
    for (const mem of live.members) {
      if ((!ignoring || !ignored.has(mem.id)) && this.desiredMark.get(mem.id) !== groupNo) return false;
    }
    return true;
  }

  create(dg: DesiredGroup, members: readonly Member[]): void {
    const after: Fields = { name: dg.name, monitors: members.map((m) => m.label).sort() };
    const body: Fields = { name: dg.name };
    if (members.length > 0) body.monitors = members.map((m) => m.id);
    this.ctx.changes.push({
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
  }

  update(dg: DesiredGroup, match: Match<Group>, members: readonly Member[]): void {
    const ctx = this.ctx;
    const memberLabel = this.memberLabel;
    const after: Fields = { name: dg.name, monitors: members.map((m) => m.label).sort() };
    const g = match.live;
    // Ignored monitors stay where they are: ignore means hands off, also for membership.
    const keptIgnored = uniq(g.members.filter((mem) => ctx.ignoredMonitorIds.has(mem.id)).map((mem) => mem.id));
    const liveMembers = g.members.filter((mem) => !ctx.ignoredMonitorIds.has(mem.id));
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
    if (changed.length === 0) return;
    const note: ChangeNote = {};
    if (match.renamedFrom !== null) note.renamed_from = g.name;
    if (added.length > 0) note.members_added = added.map((m) => m.label).sort();
    if (removed.length > 0) {
      note.members_removed = removed.map((id) => memberLabel(liveMemberById.get(id)!)).sort();
    }
    const ref = `group:${dg.name}`;
    for (const id of removed) this.removalsByMonitor.set(id, [...(this.removalsByMonitor.get(id) ?? []), ref]);
    ctx.changes.push({
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

  /**
   * A live group declared without `monitors`: its membership is not managed, so only its name is
   * (a rename sends the name alone, which keeps the members). A create of one makes it empty.
   */
  renameOnly(dg: DesiredGroup, match: Match<Group>): void {
    const g = match.live;
    if (g.name === dg.name) return;
    const monitors = this.visibleMembers(g.members);
    this.ctx.changes.push({
      ref: `group:${dg.name}`,
      action: 'update',
      kind: 'group',
      key: dg.name,
      id: g.id,
      before: { name: g.name, monitors },
      after: { name: dg.name, monitors },
      changed: ['name'],
      depends_on: [],
      call: { method: 'PUT', path: idPath('Group', g.id), body: { name: dg.name } },
      note: { renamed_from: g.name },
      source: dg.source,
    });
  }

  /** Undeclared groups: counted, or with --prune deleted, in id order. */
  prune(): void {
    const ctx = this.ctx;
    const undeclaredGroups = ctx.live.groups.filter((g) => !ctx.groupTaken.has(g.id));
    // Groups carry no owner marker: one listing a monitor of another owner is that configuration's,
    // and --prune leaves it alone (docs/semantics.md, Prune).
    const foreign = (g: Group): boolean =>
      g.members.some((mem) => {
        const m = this.monitorOf(mem.id);
        return m !== undefined && ctx.classOf(m) === 'foreign';
      });
    const othersGroups = undeclaredGroups.filter(foreign);
    if (othersGroups.length > 0) ctx.unmanaged.other_owner_groups = othersGroups.length;
    const prunedGroups = ctx.prune ? undeclaredGroups.filter((g) => !othersGroups.includes(g)) : [];
    ctx.unmanaged.groups += undeclaredGroups.length - prunedGroups.length;
    if (!inIdOrder(prunedGroups)) prunedGroups.sort(byId);
    for (const g of prunedGroups) {
      const liveMembers = g.members.filter((mem) => !ctx.ignoredMonitorIds.has(mem.id));
      ctx.changes.push({
        ref: `group:${g.name}`,
        action: 'delete',
        kind: 'group',
        key: g.name,
        id: g.id,
        before: { name: g.name, monitors: uniq(liveMembers.map(this.memberLabel)).sort() },
        after: null,
        changed: [],
        depends_on: [],
        call: { method: 'DELETE', path: idPath('Group', g.id) },
        note: { pruned: true },
      });
    }
  }

  /** Extra copies of declared groups, in id order. */
  deleteCopies(): void {
    const ctx = this.ctx;
    const groupCopies = [...ctx.groupDuplicateOf.keys()].sort(compareIds);
    for (const id of groupCopies) {
      const g = ctx.live.groups.find((x) => x.id === id)!;
      ctx.changes.push({
        ref: `group:${g.name}#${g.id}`,
        action: 'delete',
        kind: 'group',
        key: g.name,
        id: g.id,
        before: { name: g.name, monitors: this.visibleMembers(g.members) },
        after: null,
        changed: [],
        depends_on: [],
        call: { method: 'DELETE', path: idPath('Group', g.id) },
        note: { duplicate_of: ctx.groupDuplicateOf.get(id)!.id },
      });
    }
  }

  private visibleMembers(members: readonly GroupMember[]): string[] {
    return uniq(members.filter((mem) => !this.ctx.ignoredMonitorIds.has(mem.id)).map(this.memberLabel)).sort();
  }
}

/**
 * Deleting a copy takes it out of its groups; where this configuration does not set the members,
 * that would change a group behind the user's back.
 */
function refuseCopiesInUndeclaredGroups(ctx: PlanContext): void {
  for (const g of ctx.liveAll.groups) {
    if (ctx.groupDuplicateOf.has(g.id) || (ctx.groupTaken.get(g.id)?.monitors ?? null) !== null) continue;
    const listed = new Set(g.members.map((mem) => mem.id));
    for (const id of listed) {
      const keeper = ctx.duplicateOf.get(id);
      if (keeper === undefined || listed.has(keeper.id)) continue;
      ctx.problem(
        `${ctx.describe(keeper)}: its copy id ${id} is a member of group ${q(g.name)} (id ${g.id}), which this configuration does not declare with its monitors; ` +
          `deleting the copy would take it out of that group. Declare the group's monitors, or put ${ctx.describe(keeper)} in it and delete the copy in the service`,
      );
    }
  }
}
