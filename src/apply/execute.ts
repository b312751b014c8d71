/**
 * The apply engine: runs a plan's changes against the service as a dependency graph.
 *
 * - A change starts as soon as every change it depends on is done (its `depends_on` plus every
 *   `{$ref}` in its body); independent changes run concurrently, at most `parallelism` at once.
 * - The plan's call is the truth: the body is sent as planned, with refs replaced by the ids the
 *   referenced creates produced.
 * - A failed change does not stop independent ones; whatever depends on it is skipped, naming
 *   what it needed.
 * - A create whose answer was lost is settled by reading the account by natural key before any
 *   retry, so a retry never makes a duplicate.
 */
import { wasAlreadyGone } from '../api/gone.js';
import { ApiError } from '../api/errors.js';
import type {
  AlertCreate,
  GroupCreate,
  GroupUpdate,
  MonitorCreate,
  MonitorUpdate,
  MonitoringApi,
} from '../api/types.js';
import { OWNER_META_KEY, type Alert, type Group, type GroupSummary, type Monitor } from '../model/live.js';
import { isIdRef, refsInBody } from '../plan/order.js';
import type { Change, ChangeAction, ChangeKind, Plan } from '../plan/types.js';
import { redact } from '../util/redact.js';
import { changeLabel, changeTitle } from './describe.js';

export type ChangeStatus = 'done' | 'failed' | 'skipped';

export interface ChangeResult {
  ref: string;
  kind: ChangeKind;
  action: ChangeAction;
  key: string;
  /** Alerts: label of their monitor (for display). */
  monitor?: string;
  status: ChangeStatus;
  /** Created, updated or deleted resource's id; null when not done. */
  id: string | null;
  /** Failed: what went wrong, naming the call. */
  error?: string;
  /** Skipped: why it was not attempted, e.g. `needs monitor "mx-eu-4"` or `interrupted`. */
  reason?: string;
  /** Done, but worth saying how: `already gone`, `found after its answer was lost`. */
  note?: string;
  /** What the service returned (or, for alert updates without an answer, what it read back). */
  live?: Monitor | Alert | Group | GroupSummary;
  ms: number;
  /** Write calls made for this change (0 when skipped). */
  attempts: number;
}

export interface ApplyResult {
  /** One per plan change, in plan order. */
  results: ChangeResult[];
  done: number;
  failed: number;
  skipped: number;
  ms: number;
  /** The signal was aborted: some changes were not started. */
  interrupted: boolean;
  /** Write calls the engine repeated after a transient failure (the client's own retries are not counted). */
  retries: number;
  /** Lost-answer creates settled by reading the account. */
  readbacks: number;
}

export type ApplyEvent =
  | { type: 'started'; index: number; ref: string; label: string; change: Change }
  | { type: 'retry'; index: number; ref: string; label: string; attempt: number; error: string; delayMs: number }
  /** Exactly one per change, including the skipped ones (which have no `started`). */
  | { type: 'finished'; index: number; result: ChangeResult };

export interface ExecuteOptions {
  parallelism: number;
  signal?: AbortSignal;
  onEvent?: (e: ApplyEvent) => void;
  /** Ownership marker value: how a lost monitor create is recognised when read back. */
  owner: string;
  /** Tries of each write call, the first included. Default 4. */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_MAX_ATTEMPTS = 4;

/** Backoff before try n+1 after try n failed: 0.25 s, 0.5 s, 1 s, ... capped at 8 s, with jitter. */
export function backoffMs(failedAttempt: number): number {
  const base = Math.min(250 * 2 ** (failedAttempt - 1), 8000);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

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

export function describeError(err: unknown): string {
  let text: string;
  if (err instanceof ApiError) {
    text = err.serviceError ? `the service said ${JSON.stringify(err.serviceError)} (${err.method} ${err.path})` : err.message;
  } else if (err instanceof Error) {
    text = err.message;
  } else {
    text = String(err);
  }
  return redact(text);
}

/** Worth trying again: the service did not (or may not have) act on it for a passing reason. */
function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.maybeApplied || err.kind === 'timeout' || err.kind === 'network') return true;
  return err.kind === 'http' && err.status !== null && (err.status >= 500 || err.status === 429);
}

/** The request may have reached the service and been acted on although we have no answer. */
function mayHaveApplied(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.maybeApplied || err.kind === 'timeout' || err.kind === 'network') return true;
  // A 2xx whose body we could not read was acted on; a 5xx may have been, after processing.
  if (err.kind === 'malformed') return true;
  return err.kind === 'http' && err.status !== null && err.status >= 500;
}

/**
 * No answer came back and the connection did not prove the request finished: a timeout, or a
 * connection lost after sending. Contrast a 5xx or 429 (the service answered, so it is done with
 * the request) and a refused connection (it never arrived).
 */
function mayStillBeInFlight(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.kind === 'timeout' || (err.kind === 'network' && err.maybeApplied);
}

// "unknown" only about an id ("Unknown group id 9"): "unknown error" must not turn a refused delete into a done one.
const GONE_TEXT = /\b(unknown\s+(?:\w+\s+)?id|not found|no such|does not exist|doesn't exist)\b/i;

/** A delete answered "no such resource": it is already what the plan wanted. */
function isGone(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 404) return true;
  return err.kind === 'service' && err.serviceError !== null && GONE_TEXT.test(err.serviceError);
}

type Outcome = { id: string; live?: Monitor | Alert | Group | GroupSummary; note?: string };

type State = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

const EXPECTED_METHOD: Record<ChangeAction, string> = { create: 'POST', update: 'PUT', delete: 'DELETE' };

/** Why a change cannot be run as written, or null. Checked up front so a bad plan fails before any call. */
function invalidReason(c: Change, refs: Map<string, number>, index: number): string | null {
  if (refs.get(c.ref) !== index) return `the plan has two changes with ref ${JSON.stringify(c.ref)}`;
  if (!['monitor', 'alert', 'group'].includes(c.kind) || !['create', 'update', 'delete'].includes(c.action)) {
    return `the plan has an unknown change ${JSON.stringify(`${c.action} ${c.kind}`)}`;
  }
  if (c.call?.method !== EXPECTED_METHOD[c.action]) {
    return `the plan's call (${c.call?.method} ${c.call?.path}) does not match a ${c.action}`;
  }
  if (c.action !== 'create' && (typeof c.id !== 'string' || c.id === '')) return `the plan gives no id to ${c.action}`;
  if (c.action !== 'delete' && (typeof c.call.body !== 'object' || c.call.body === null)) {
    return `the plan gives no body for the ${c.action}`;
  }
  return null;
}

export async function executePlan(plan: Plan, api: MonitoringApi, opts: ExecuteOptions): Promise<ApplyResult> {
  const t0 = performance.now();
  const changes = plan.changes;
  const n = changes.length;
  const parallelism = Number.isFinite(opts.parallelism) && opts.parallelism >= 1 ? Math.floor(opts.parallelism) : 1;
  const maxAttempts =
    opts.maxAttempts !== undefined && Number.isFinite(opts.maxAttempts) && opts.maxAttempts >= 1
      ? Math.floor(opts.maxAttempts)
      : DEFAULT_MAX_ATTEMPTS;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const signal = opts.signal;
  const emit = (e: ApplyEvent) => {
    // A progress printer that throws must not wreck the bookkeeping of calls already made.
    try {
      opts.onEvent?.(e);
    } catch {
      /* ignored */
    }
  };

  const indexOf = new Map<string, number>();
  changes.forEach((c, i) => {
    if (!indexOf.has(c.ref)) indexOf.set(c.ref, i);
  });

  const state: State[] = changes.map(() => 'pending');
  const results: (ChangeResult | undefined)[] = new Array(n);
  const ids: (string | null)[] = changes.map(() => null);
  const deps: number[][] = changes.map(() => []);
  const dependents: number[][] = changes.map(() => []);
  const waitingOn: number[] = changes.map(() => 0);
  const invalid: (string | null)[] = changes.map((c, i) => invalidReason(c, indexOf, i));
  let retries = 0;
  let readbacks = 0;
  /** Changes that failed because the abort stopped their retry or read-back. */
  let cutShort = 0;

  changes.forEach((c, i) => {
    if (invalid[i]) return;
    const needed = new Set([...(c.depends_on ?? []), ...refsInBody(c.call.body)]);
    // A Set, not includes(): a group of 10,000 new monitors depends on 10,000 changes.
    const seen = new Set<number>();
    for (const r of needed) {
      const j = indexOf.get(r);
      if (j === undefined) {
        invalid[i] = `it depends on ${JSON.stringify(r)}, which is not in the plan`;
        return;
      }
      if (!seen.has(j)) {
        seen.add(j);
        deps[i]!.push(j);
      }
    }
  });
  changes.forEach((_, i) => {
    for (const j of deps[i]!) dependents[j]!.push(i);
    waitingOn[i] = deps[i]!.length;
  });
  markCycles();

  const base = (c: Change): Omit<ChangeResult, 'status' | 'id' | 'ms' | 'attempts'> => ({
    ref: c.ref,
    kind: c.kind,
    action: c.action,
    key: c.key,
    ...(c.monitor !== undefined ? { monitor: c.monitor } : {}),
  });

  const ready: number[] = [];
  let running = 0;
  let settle!: () => void;
  const finished = new Promise<void>((r) => (settle = r));
  let closed = false;
  let stopped = false;

  const addReady = (i: number) => {
    // Plan order among ready changes: the plan lists them in a sensible order (e.g. creates first).
    let lo = 0;
    let hi = ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ready[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    ready.splice(lo, 0, i);
  };

  const record = (i: number, r: ChangeResult) => {
    results[i] = r;
    state[i] = r.status;
    emit({ type: 'finished', index: i, result: r });
  };

  const skip = (i: number, reason: string) => {
    record(i, { ...base(changes[i]!), status: 'skipped', id: null, reason, ms: 0, attempts: 0 });
  };

  /** Skip everything that (transitively) needs change `i`, which did not get done. */
  const skipDependents = (i: number) => {
    const stack = [i];
    while (stack.length) {
      const j = stack.pop()!;
      for (const d of dependents[j]!) {
        if (state[d] !== 'pending') continue;
        skip(d, `needs ${changeTitle(changes[j]!)}`);
        stack.push(d);
      }
    }
  };

  for (let i = 0; i < n; i++) {
    const why = invalid[i];
    if (why && state[i] === 'pending') {
      record(i, { ...base(changes[i]!), status: 'failed', id: null, error: `not run: ${why}`, ms: 0, attempts: 0 });
    }
  }
  for (let i = 0; i < n; i++) if (state[i] === 'failed') skipDependents(i);
  for (let i = 0; i < n; i++) if (state[i] === 'pending' && waitingOn[i] === 0) addReady(i);

  const pump = () => {
    if (closed) return;
    // Checked before every start: an event handler may abort in the middle of this loop.
    while (signal?.aborted !== true && running < parallelism && ready.length > 0) {
      const i = ready.shift()!;
      if (state[i] !== 'pending') continue;
      start(i);
    }
    const stop = signal?.aborted === true;
    if (running === 0 && (stop || ready.length === 0)) {
      closed = true;
      stopped = stop;
      settle();
    }
  };

  const start = (i: number) => {
    const c = changes[i]!;
    state[i] = 'running';
    running += 1;
    emit({ type: 'started', index: i, ref: c.ref, label: changeLabel(c), change: c });
    void runChange(i)
      .catch((err: unknown): ChangeResult => ({
        ...base(c),
        status: 'failed',
        id: null,
        error: describeError(err),
        ms: 0,
        attempts: 0,
      }))
      .then((r) => {
        running -= 1;
        if (r.status === 'done') ids[i] = r.id;
        record(i, r);
        if (r.status === 'done') {
          for (const d of dependents[i]!) {
            waitingOn[d]! -= 1;
            if (waitingOn[d] === 0 && state[d] === 'pending') addReady(d);
          }
        } else {
          skipDependents(i);
        }
        pump();
      });
  };

  const onAbort = () => queueMicrotask(pump);
  signal?.addEventListener('abort', onAbort, { once: true });
  pump();
  await finished;
  signal?.removeEventListener('abort', onAbort);

  // Aborted with nothing left undone (the last call finished anyway) is a complete run.
  const interrupted = stopped && (state.some((s) => s === 'pending') || cutShort > 0);
  for (let i = 0; i < n; i++) {
    // Only an abort (or a graph the checks above missed) leaves changes unstarted.
    if (state[i] === 'pending') skip(i, interrupted ? 'interrupted' : 'not reached');
  }

  const list = results as ChangeResult[];
  return {
    results: list,
    done: list.filter((r) => r.status === 'done').length,
    failed: list.filter((r) => r.status === 'failed').length,
    skipped: list.filter((r) => r.status === 'skipped').length,
    ms: performance.now() - t0,
    interrupted,
    retries,
    readbacks,
  };

  // ---- helpers that close over the run's state ----

  /** Changes on a dependency cycle can never start: fail them up front so their dependents are skipped. */
  function markCycles(): void {
    // Kahn's algorithm; an invalid change counts as settled here (its dependents get skipped anyway).
    const settled = changes.map((_, i) => Boolean(invalid[i]));
    const pending = changes.map((_, i) => deps[i]!.filter((j) => !settled[j]).length);
    const queue = changes.map((_, i) => i).filter((i) => !settled[i] && pending[i] === 0);
    while (queue.length) {
      const j = queue.pop()!;
      settled[j] = true;
      for (const d of dependents[j]!) {
        if (settled[d]) continue;
        pending[d]! -= 1;
        if (pending[d] === 0) queue.push(d);
      }
    }
    for (let i = 0; i < n; i++) {
      // Left over: on a cycle, or behind one. Only those on one fail; the rest are skipped behind them.
      if (!settled[i] && reaches(i, i)) invalid[i] = 'its dependencies form a cycle';
    }
  }

  function reaches(from: number, target: number): boolean {
    const stack = [...deps[from]!];
    const visited = new Set<number>();
    while (stack.length) {
      const j = stack.pop()!;
      if (j === target) return true;
      if (visited.has(j)) continue;
      visited.add(j);
      stack.push(...deps[j]!);
    }
    return false;
  }

  async function runChange(i: number): Promise<ChangeResult> {
    const c = changes[i]!;
    const t = performance.now();
    const label = changeLabel(c);
    const finish = (r: Partial<ChangeResult> & Pick<ChangeResult, 'status' | 'id'>, attempts: number): ChangeResult => ({
      ...base(c),
      ...r,
      ms: performance.now() - t,
      attempts,
    });

    let body: Record<string, unknown> | undefined;
    try {
      body = c.call.body === undefined ? undefined : (resolveRefs(c.call.body, (r) => {
        const j = indexOf.get(r);
        return j !== undefined && state[j] === 'done' ? ids[j]! : null;
      }) as Record<string, unknown>);
    } catch (err) {
      if (!(err instanceof UnresolvedRef)) throw err;
      const j = indexOf.get(err.ref);
      const what = j === undefined ? JSON.stringify(err.ref) : changeTitle(changes[j]!);
      return finish({ status: 'skipped', id: null, reason: `needs ${what}` }, 0);
    }

    let attempts = 0;
    for (;;) {
      attempts += 1;
      let err: unknown;
      try {
        const out = await perform(c, body);
        if (c.action === 'delete' && out.live && wasAlreadyGone(out.live)) {
          // The client's own retry found it deleted by an attempt whose answer was lost.
          return finish({ status: 'done', id: c.id, note: 'already gone' }, attempts);
        }
        return finish({ status: 'done', id: out.id, ...(out.live ? { live: out.live } : {}), ...(out.note ? { note: out.note } : {}) }, attempts);
      } catch (e) {
        err = e;
      }
      if (c.action === 'delete' && isGone(err)) {
        return finish({ status: 'done', id: c.id, note: 'already gone' }, attempts);
      }
      const canRetry = isTransient(err) && attempts < maxAttempts;
      const mustCheck = c.action === 'create' && mayHaveApplied(err);
      if (!canRetry && !mustCheck) return finish({ status: 'failed', id: null, error: describeError(err) }, attempts);

      const delayMs = backoffMs(attempts);
      if (canRetry) emit({ type: 'retry', index: i, ref: c.ref, label, attempt: attempts, error: describeError(err), delayMs });
      // Waiting before the read-back too gives a request still in flight on the service's side
      // time to land, so the read sees it rather than a retry duplicating it.
      const interruptedWait = await pause(delayMs);
      if (interruptedWait) {
        cutShort += 1;
        const tail = mustCheck
          ? '; interrupted before checking whether the service created it (plan again will show it)'
          : '; interrupted before retrying';
        return finish({ status: 'failed', id: null, error: describeError(err) + tail }, attempts);
      }
      if (mustCheck) {
        readbacks += 1;
        const found = await readBack(c, body ?? {});
        if (found.kind === 'found') {
          return finish({ status: 'done', id: found.id, live: found.live, note: 'found after its answer was lost' }, attempts);
        }
        if (found.kind === 'error') {
          if (found.interrupted) cutShort += 1;
          return finish(
            {
              status: 'failed',
              id: null,
              error: `${describeError(err)}; could not check whether the service created it: ${found.error} (plan again will show it)`,
            },
            attempts,
          );
        }
        if (!canRetry) return finish({ status: 'failed', id: null, error: describeError(err) }, attempts);
        if (mayStillBeInFlight(err)) {
          // No answer at all: the service may still be working on it, so "not found yet" proves
          // nothing and a retry could make it twice. Fail safe; the next plan sees what landed.
          return finish(
            {
              status: 'failed',
              id: null,
              error: `${describeError(err)}; the service gave no answer and may still create it, so monsync did not send it again (plan again will show whether it exists)`,
            },
            attempts,
          );
        }
      }
      retries += 1;
    }
  }

  /** Sleeps unless the run is aborted first; true when aborted. */
  async function pause(ms: number): Promise<boolean> {
    if (!signal) {
      await sleep(ms);
      return false;
    }
    if (signal.aborted) return true;
    let onAbortWait: (() => void) | undefined;
    const aborted = new Promise<void>((r) => {
      onAbortWait = () => r();
      signal.addEventListener('abort', onAbortWait, { once: true });
    });
    await Promise.race([sleep(ms), aborted]);
    signal.removeEventListener('abort', onAbortWait!);
    return signal.aborted;
  }

  async function perform(c: Change, body: Record<string, unknown> | undefined): Promise<Outcome> {
    const id = c.id ?? '';
    const b = body ?? {};
    switch (`${c.kind}:${c.action}`) {
      case 'monitor:create': {
        const m = await api.createMonitor(b as unknown as MonitorCreate);
        return { id: m.id, live: m };
      }
      case 'monitor:update':
        return { id, live: await api.updateMonitor(id, b as MonitorUpdate) };
      case 'monitor:delete':
        return { id, live: await api.deleteMonitor(id) };
      case 'alert:create': {
        const a = await api.createAlert(b as unknown as AlertCreate);
        return { id: a.id, live: a };
      }
      case 'alert:update': {
        const a = await api.updateAlert(id, b as unknown as AlertCreate);
        if (a) return { id, live: a };
        // The API shows no response for modify: what the service now holds is read separately.
        // The update itself succeeded, so a failing read must not turn it into a failure.
        try {
          return { id, live: await api.getAlert(id) };
        } catch (err) {
          return { id, note: `reading it back failed: ${describeError(err)}` };
        }
      }
      case 'alert:delete':
        return { id, live: await api.deleteAlert(id) };
      case 'group:create': {
        const g = await api.createGroup(b as unknown as GroupCreate);
        return { id: g.id, live: g };
      }
      case 'group:update':
        return { id, live: await api.updateGroup(id, b as unknown as GroupUpdate) };
      case 'group:delete':
        return { id, live: await api.deleteGroup(id) };
      default:
        throw new Error(`unknown change ${c.action} ${c.kind}`);
    }
  }

  type ReadBack =
    | { kind: 'found'; id: string; live: Monitor | Alert | GroupSummary }
    | { kind: 'absent' }
    | { kind: 'error'; error: string; interrupted?: boolean };

  /** Looks for what a create would have made, by its natural key. Reads are retried; they change nothing. */
  async function readBack(c: Change, body: Record<string, unknown>): Promise<ReadBack> {
    for (let attempt = 1; ; attempt++) {
      try {
        const found = await findByNaturalKey(c.kind, body);
        return found ? { kind: 'found', id: found.id, live: found } : { kind: 'absent' };
      } catch (err) {
        if (!isTransient(err) || attempt >= maxAttempts) return { kind: 'error', error: describeError(err) };
        if (await pause(backoffMs(attempt))) return { kind: 'error', error: 'interrupted', interrupted: true };
      }
    }
  }

  async function findByNaturalKey(kind: ChangeKind, body: Record<string, unknown>): Promise<Monitor | Alert | GroupSummary | undefined> {
    if (kind === 'monitor') {
      const meta = body.meta as Record<string, unknown> | undefined;
      const marker = typeof meta?.[OWNER_META_KEY] === 'string' ? meta[OWNER_META_KEY] : undefined;
      const monitors = await api.listMonitors();
      // The owner's marker, or whatever marker the body itself set: the create made exactly that.
      return monitors.find(
        (m) =>
          m.type === 'smtp' &&
          m.label === body.label &&
          (m.meta[OWNER_META_KEY] === opts.owner || m.meta[OWNER_META_KEY] === marker),
      );
    }
    if (kind === 'alert') {
      const alerts = await api.listAlerts();
      return alerts.find((a) => a.monitor === body.monitor && a.subject_init === body.subject_init);
    }
    const groups = await api.listGroups();
    return groups.find((g) => g.name === body.name);
  }
}
