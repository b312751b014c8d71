/**
 * A delete and a create that differ only in their label (or group name) are most likely one
 * resource renamed without `previous_labels` / `previous_names` (or a `git revert` of a rename):
 * applied as they stand, the monitor loses its id, its history and its alerts. The plan does not
 * guess (README, "Renames"); it notes the likely pair on both changes so a reviewer is told.
 * Only pairs that are unique both ways are noted.
 */
import { OWNER_META_KEY } from '../../model/live.js';
import type { Change } from '../types.js';

/** The fields of a change's resource but its key (label, name) and the ownership marker, as one comparable text. */
function signature(c: Change, fields: Record<string, unknown>): string {
  const key = c.kind === 'group' ? 'name' : 'label';
  const out: [string, unknown][] = [];
  for (const f of Object.keys(fields).sort()) {
    if (f === key) continue;
    let v = fields[f];
    if (f === 'meta' && v && typeof v === 'object') {
      const { [OWNER_META_KEY]: _marker, ...rest } = v as Record<string, unknown>;
      v = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    } else if (c.kind === 'group' && f === 'monitors' && Array.isArray(v)) {
      v = [...v].map(String).sort();
    }
    out.push([f, v]);
  }
  return `${c.kind}\n${JSON.stringify(out)}`;
}

export function noteLikelyRenames(changes: readonly Change[]): void {
  const creates = new Map<string, Change[]>();
  const deletes = new Map<string, Change[]>();
  for (const c of changes) {
    if (c.kind === 'alert') continue;
    // A near miss already says which live monitor the create may mean.
    if (c.action === 'create' && c.after && c.note?.near_miss === undefined) push(creates, signature(c, c.after), c);
    else if (c.action === 'delete' && c.before && c.note?.duplicate_of === undefined) push(deletes, signature(c, c.before), c);
  }
  if (creates.size === 0 || deletes.size === 0) return;
  for (const [sig, made] of creates) {
    const gone = deletes.get(sig);
    if (made.length !== 1 || gone?.length !== 1) continue;
    const [create, del] = [made[0]!, gone[0]!];
    create.note = { ...create.note, looks_like_rename_of: del.key };
    del.note = { ...del.note, looks_like_rename_to: create.key };
  }
}

function push(map: Map<string, Change[]>, key: string, c: Change): void {
  const list = map.get(key);
  if (list) list.push(c);
  else map.set(key, [c]);
}
