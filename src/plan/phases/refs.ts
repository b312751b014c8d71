/**
 * The last phase, over all changes: deletes that would name a resource ambiguously, refs unique
 * within the plan, and `--target`.
 */
import { matchesAny } from '../../util/glob.js';
import { refsInBody } from '../order.js';
import type { Change } from '../types.js';
import type { PlanContext } from './context.js';
import { ids, q } from './util.js';

/**
 * Deletes go by id, but a person reading "delete monitor x" cannot tell which x: refuse instead,
 * unless the delete is of a copy of one the plan keeps, or every one of them goes.
 */
export function refuseAmbiguousDeletes(ctx: PlanContext): void {
  const deletedByKey = new Map<string, number>();
  for (const c of ctx.changes) if (c.action === 'delete' && c.kind !== 'alert') deletedByKey.set(`${c.kind}:${c.key}`, (deletedByKey.get(`${c.kind}:${c.key}`) ?? 0) + 1);
  for (const c of ctx.changes) {
    if (c.action !== 'delete' || c.kind === 'alert' || c.note?.duplicate_of !== undefined) continue;
    const same =
      c.kind === 'monitor' ? (ctx.monitorsByLabel.get(c.key) ?? []) : (ctx.groupsByName.get(c.key) ?? []);
    if (same.length > 1 && deletedByKey.get(`${c.kind}:${c.key}`) !== same.length) {
      ctx.problem(
        `${c.kind} ${q(c.key)}: this plan would delete id ${c.id}, but the account has ${same.length} ${c.kind}s with this ${
          c.kind === 'monitor' ? 'label' : 'name'
        } (ids ${ids(same)}); rename or delete all but one in the service`,
      );
    }
  }
}

/**
 * Refs must be unique. Creates are keyed by declared names (alert creates that still collide get a
 * counter); updates and deletes of live resources that share a key (duplicate live alerts) get their
 * id appended.
 */
export function uniqueRefs(changes: Change[]): void {
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
export function selectTargets(changes: Change[], targets: readonly string[]): Change[] {
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
