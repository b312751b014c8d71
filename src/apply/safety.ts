/**
 * The guard against a plan that would wipe out much of an account (a config directory not found,
 * a wrong owner, a target typo): apply refuses large deletions unless forced. Pure.
 */
import type { Plan } from '../plan/types.js';
import { changeTitle } from './describe.js';
import { plural } from '../util/plural.js';

export interface DeleteLimits {
  /** Most resources a plan may delete without force; default max(10, 30% of managed). */
  maxDeletes?: number;
  force?: boolean;
}

export type SafetyCheck = { ok: true } | { ok: false; message: string; deletes: string[] };

export const MIN_DELETE_LIMIT = 10;
export const DELETE_SHARE = 0.3;

export function defaultMaxDeletes(managedCount: number): number {
  return Math.max(MIN_DELETE_LIMIT, Math.floor(DELETE_SHARE * Math.max(0, managedCount)));
}

/**
 * `managedCount`: resources monsync owns in the account (managed monitors and their alerts). A
 * monitor delete counts with the alerts the service deletes along with it (`effects.cascade_alerts`),
 * since those are resources lost too. A monitor delete that takes alerts of other types with it
 * (`effects.other_type_alerts`: the API cannot create them again) is refused without force whatever
 * the limit.
 */
export function checkDeletes(plan: Plan, managedCount: number, limits: DeleteLimits = {}): SafetyCheck {
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  const count = deletes.reduce((n, c) => n + 1 + (c.effects?.cascade_alerts ?? 0), 0);
  const explicit = limits.maxDeletes !== undefined && Number.isFinite(limits.maxDeletes) && limits.maxDeletes >= 0;
  const limit = explicit ? Math.floor(limits.maxDeletes!) : defaultMaxDeletes(managedCount);
  if (limits.force) return { ok: true };
  const describeDelete = (c: (typeof deletes)[number]): string => {
    const id = c.id ? ` (id ${c.id})` : '';
    const n = c.effects?.cascade_alerts ?? 0;
    const lost = c.effects?.other_type_alerts ?? [];
    const which = lost.length > 0 ? ` (${lost.map((a) => `${a.type} ${JSON.stringify(a.subject_init)}`).join(', ')})` : '';
    const cascade = n > 0 ? ` and its ${plural(n, 'alert')}${which}` : '';
    return `${changeTitle(c)}${id}${cascade}`;
  };
  // Alerts of other types go with their monitor and can never be made again: no threshold allows that.
  const losing = deletes.filter((c) => (c.effects?.other_type_alerts?.length ?? 0) > 0);
  if (count <= limit && losing.length === 0) return { ok: true };
  if (count <= limit) {
    const lost = losing.reduce((n, c) => n + c.effects!.other_type_alerts!.length, 0);
    return {
      ok: false,
      message:
        `refusing to apply a plan whose monitor deletes take ${plural(lost, 'alert')} of another type with them, which the API cannot create again. ` +
        'If that is intended, run again with --force; otherwise keep the monitor in the configuration.',
      deletes: losing.map(describeDelete),
    };
  }

  const why = explicit
    ? `more than --max-deletes ${limit}`
    : limit === MIN_DELETE_LIMIT
      ? `more than ${limit}`
      : `more than ${limit}, 30% of the ${managedCount} managed`;
  const noun = count === 1 ? 'resource' : 'resources';
  // The plan's "to destroy" counts each delete once: say where the rest comes from.
  const cascaded = count - deletes.length;
  const parts = cascaded > 0 ? `: the plan's ${plural(deletes.length, 'delete')} and the ${plural(cascaded, 'alert')} the service deletes with their monitors` : '';
  return {
    ok: false,
    message:
      `refusing to apply a plan that deletes ${count} ${noun} (${why})${parts}. ` +
      'If that is intended, run again with --force or a higher --max-deletes; otherwise check the configuration paths, owner and --target.',
    deletes: deletes.map(describeDelete),
  };
}
