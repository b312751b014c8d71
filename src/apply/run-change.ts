/**
 * Running one change: its body with refs replaced by the ids the referenced creates produced, the
 * one API call the plan names, and what apply alone can add to the client's retries (which follow
 * the one rule of src/api/retry.ts; apply has no retry loop of its own):
 *
 * - a create carries a lookup by natural key (label and owner marker; monitor and subject; group
 *   name), which the client asks before it would ever send a create whose answer was lost again;
 * - a delete answered "no such object" (src/api/gone.ts) is done: gone is what the plan wanted;
 * - an alert update the service answers with nothing is read back, for the record;
 * - the answer (or the read-back) is checked (verify.ts): one about another object fails the change,
 *   so nothing that depends on it starts; fields it stored otherwise than sent are named (`notKept`).
 */
import { describeError } from '../api/errors.js';
import { isGoneError, wasAlreadyGone } from '../api/gone.js';
import type { AlertCreate, CallOptions, GroupCreate, GroupUpdate, MonitorCreate, MonitorUpdate, MonitoringApi } from '../api/types.js';
import { OWNER_META_KEY, type Alert, type Group, type GroupSummary, type Monitor } from '../model/live.js';
import { isIdRef } from '../plan/order.js';
import type { Change } from '../plan/types.js';
import { changeTitle } from './describe.js';
import { resultBase, type ChangeResult } from './result.js';
import type { Ran } from './schedule.js';
import { answerMismatch, notKept, type HeldIds } from './verify.js';

export { describeError };

export interface ChangeContext {
  api: MonitoringApi;
  /** Ownership marker value: how a lost monitor create is recognised when looked up. */
  owner: string;
  signal?: AbortSignal;
  /** The id a done change of the plan produced, or null when that change is not done. */
  idOf: (ref: string) => string | null;
  /** How to name the change with `ref` in a skip reason. */
  titleOf: (ref: string) => string;
  /** Told each time a lost create is looked up. */
  lookedUp: () => void;
  /** The ids the account held before the run: a create answered with one of them did not make it. */
  held?: HeldIds;
  /**
   * The labels this plan creates monitors under, and the ids its done changes made: with `held`, a
   * lost create's lookup tells a monitor this apply made and someone renamed before the answer came.
   */
  plannedLabels?: ReadonlySet<string>;
  madeIds?: () => ReadonlySet<string>;
}

type Live = Monitor | Alert | Group | GroupSummary;
type Outcome = { id: string; live?: Live; note?: string; renamed?: string };

class UnresolvedRef extends Error {
  constructor(readonly ref: string) {
    super(`unresolved ref ${ref}`);
  }
}

/** A copy of `v` with every IdRef replaced; the plan itself is never modified. */
export function resolveRefs(v: unknown, idOf: (ref: string) => string | null): unknown {
  if (isIdRef(v)) {
    const id = idOf(v.$ref);
    if (id === null) throw new UnresolvedRef(v.$ref);
    return id;
  }
  if (Array.isArray(v)) return v.map((x) => resolveRefs(x, idOf));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = resolveRefs(x, idOf);
    return out;
  }
  return v;
}

/** Runs change `c`. Never throws: every outcome is a result. */
export async function runChange(c: Change, ctx: ChangeContext): Promise<Ran> {
  const t = performance.now();
  let attempts = 0;
  const finish = (r: Partial<ChangeResult> & Pick<ChangeResult, 'status' | 'id'>, interrupted = false): Ran => ({
    result: { ...resultBase(c), ...r, ms: performance.now() - t, attempts },
    interrupted,
  });

  let body: Record<string, unknown> | undefined;
  try {
    body = c.call.body === undefined ? undefined : (resolveRefs(c.call.body, ctx.idOf) as Record<string, unknown>);
  } catch (err) {
    if (!(err instanceof UnresolvedRef)) return finish({ status: 'failed', id: null, error: describeError(err) });
    return finish({ status: 'skipped', id: null, reason: `needs ${ctx.titleOf(err.ref)}` });
  }

  const opts: CallOptions = { onAttempt: (n) => (attempts = n), ...(ctx.signal ? { signal: ctx.signal } : {}) };
  try {
    const out = await perform(c, body ?? {}, ctx, opts);
    if (c.action === 'delete' && out.live && wasAlreadyGone(out.live)) {
      // The client's own retry found it deleted by an attempt whose answer was lost.
      return finish({ status: 'done', id: c.id, note: 'already gone' });
    }
    if (out.live && out.renamed === undefined) {
      const mismatch = answerMismatch(c, body ?? {}, out.live, ctx.held);
      if (mismatch !== null) return finish({ status: 'failed', id: null, error: mismatch, live: out.live });
    }
    const lost = out.renamed !== undefined ? [out.renamed] : out.live ? notKept(c, body ?? {}, out.live) : [];
    return finish({
      status: 'done',
      id: out.id,
      ...(out.live ? { live: out.live } : {}),
      ...(out.note ? { note: out.note } : {}),
      ...(lost.length > 0 ? { notKept: lost } : {}),
    });
  } catch (err) {
    if (c.action === 'delete' && isGoneError(err)) return finish({ status: 'done', id: c.id, note: 'already gone' });
    const interrupted = typeof err === 'object' && err !== null && (err as { interrupted?: unknown }).interrupted === true;
    return finish({ status: 'failed', id: null, error: describeError(err) }, interrupted);
  }
}

/** The plan's call, and for a create the lookup that settles a lost answer. */
async function perform(c: Change, b: Record<string, unknown>, ctx: ChangeContext, opts: CallOptions): Promise<Outcome> {
  const { api } = ctx;
  const id = c.id ?? '';
  const reads: CallOptions = ctx.signal ? { signal: ctx.signal } : {};
  let found: Live | undefined;
  // What the lookup found is what the client returns: that identity says how the create was settled.
  const lookup = <T extends Live>(find: () => Promise<T | undefined>) => async (): Promise<T | undefined> => {
    ctx.lookedUp();
    const hit = await find();
    found = hit;
    return hit;
  };
  const created = (live: Live): Outcome => {
    if (live !== found || found === undefined) return { id: live.id, live };
    // Made by this create and renamed before its answer came: not made again; the label is not as sent (exit 4).
    if (c.kind === 'monitor' && (live as Monitor).label !== b.label) {
      const renamed = `the create's answer was lost and the monitor it made (id ${live.id}) is now labelled ${JSON.stringify((live as Monitor).label)}: someone renamed it before the answer came; monsync did not create it again`;
      return { id: live.id, live, note: 'found after its answer was lost, renamed', renamed };
    }
    return { id: live.id, live, note: 'found after its answer was lost' };
  };

  switch (`${c.kind}:${c.action}`) {
    case 'monitor:create':
      return created(await api.createMonitor(b as unknown as MonitorCreate, { ...opts, lookup: lookup(() => findMonitor(b, ctx, reads)) }));
    case 'monitor:update':
      return { id, live: await api.updateMonitor(id, b as MonitorUpdate, opts) };
    case 'monitor:delete':
      return { id, live: await api.deleteMonitor(id, opts) };
    case 'alert:create':
      return created(await api.createAlert(b as unknown as AlertCreate, { ...opts, lookup: lookup(() => findAlert(b, api, reads)) }));
    case 'alert:update': {
      const a = await api.updateAlert(id, b as unknown as AlertCreate, opts);
      if (a) return { id, live: a };
      // The API shows no response for modify: what the service now holds is read separately.
      // The update itself succeeded, so a failing read must not turn it into a failure.
      try {
        return { id, live: await api.getAlert(id, reads) };
      } catch (err) {
        return { id, note: `reading it back failed: ${describeError(err)}` };
      }
    }
    case 'alert:delete':
      return { id, live: await api.deleteAlert(id, opts) };
    case 'group:create':
      return created(await api.createGroup(b as unknown as GroupCreate, { ...opts, lookup: lookup(() => findGroup(b, api, reads)) }));
    case 'group:update':
      return { id, live: await api.updateGroup(id, b as unknown as GroupUpdate, opts) };
    case 'group:delete':
      return { id, live: await api.deleteGroup(id, opts) };
    default:
      throw new Error(`unknown change ${c.action} ${c.kind}`);
  }
}

/** The monitor a create made: its label, SMTP, and the owner's marker or whatever marker the body set. */
/**
 * The monitor a lost create made: by its label and owner marker; else, when the ids held before
 * the run are known, one with the marker and the create's host and test account that no one held
 * before, no done change made, under a label this plan does not create: the create's own monitor,
 * renamed before its answer came (sending the create again would make a second one).
 */
async function findMonitor(body: Record<string, unknown>, ctx: ChangeContext, reads: CallOptions): Promise<Monitor | undefined> {
  const meta = body.meta as Record<string, unknown> | undefined;
  const marker = typeof meta?.[OWNER_META_KEY] === 'string' ? meta[OWNER_META_KEY] : undefined;
  const monitors = await ctx.api.listMonitors(reads);
  const ours = (m: Monitor) => m.type === 'smtp' && (m.meta[OWNER_META_KEY] === ctx.owner || m.meta[OWNER_META_KEY] === marker);
  const byLabel = monitors.find((m) => ours(m) && m.label === body.label);
  if (byLabel !== undefined || ctx.held === undefined) return byLabel;
  const made = ctx.madeIds?.() ?? new Set<string>();
  return monitors.find(
    (m) =>
      ours(m) &&
      !ctx.held!.monitor.has(m.id) &&
      !made.has(m.id) &&
      !(ctx.plannedLabels?.has(m.label) ?? false) &&
      m.ip_address === body.ip_address &&
      m.test_account === body.test_account,
  );
}

async function findAlert(body: Record<string, unknown>, api: MonitoringApi, reads: CallOptions): Promise<Alert | undefined> {
  const alerts = await api.listAlerts(reads);
  return alerts.find((a) => a.monitor === body.monitor && a.subject_init === body.subject_init);
}

/** The group a create made, by name, read in full (the list gives no members). */
async function findGroup(body: Record<string, unknown>, api: MonitoringApi, reads: CallOptions): Promise<Group | undefined> {
  const hit = (await api.listGroups(reads)).find((g) => g.name === body.name);
  return hit === undefined ? undefined : api.getGroup(hit.id, reads);
}

/** `monitor "mx-eu-4"` for a change of the plan, or the ref itself when the plan has no such change. */
export function titleIn(changes: readonly Change[], indexOf: Map<string, number>): (ref: string) => string {
  return (ref) => {
    const j = indexOf.get(ref);
    return j === undefined ? JSON.stringify(ref) : changeTitle(changes[j]!);
  };
}
