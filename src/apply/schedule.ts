/**
 * Scheduling of an apply: runs a plan's dependency graph with at most `parallelism` changes at
 * once, each as soon as everything it needs is done, in plan order among those ready.
 *
 * - A change that is not done (failed, or skipped) skips everything that needs it, naming what
 *   it needed; independent changes carry on.
 * - Once the signal is aborted nothing new starts; running changes finish (their calls stop
 *   retrying: src/api/transport.ts), and the changes never started are reported as such.
 * - Exactly one `finished` per change, in the order they finish; `started` only for changes run.
 */
import type { Change } from '../plan/types.js';
import { changeTitle } from './describe.js';
import type { PlanGraph } from './graph.js';
import { NOT_STARTED, resultBase, type ChangeResult } from './result.js';

type State = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

/** How running one change went: its result, and whether the abort cut it short. */
export interface Ran {
  result: ChangeResult;
  interrupted: boolean;
}

export interface Hooks {
  parallelism: number;
  signal?: AbortSignal;
  /** Runs change `i`; every change it needs is done. Must not throw. */
  run: (i: number) => Promise<Ran>;
  started: (i: number) => void;
  finished: (i: number, r: ChangeResult) => void;
}

export class Schedule {
  private readonly state: State[];
  private readonly results: (ChangeResult | undefined)[];
  private readonly waitingOn: number[];
  private readonly ready: number[] = [];
  private running = 0;
  private cutShort = 0;

  constructor(
    private readonly changes: readonly Change[],
    private readonly graph: PlanGraph,
    private readonly hooks: Hooks,
  ) {
    this.state = changes.map(() => 'pending');
    this.results = new Array<ChangeResult | undefined>(changes.length);
    this.waitingOn = graph.deps.map((d) => d.length);
  }

  /** Whether change `i` is done. */
  isDone(i: number): boolean {
    return this.state[i] === 'done';
  }

  /**
   * Runs the plan to its end, or to the abort; resolves to the results in plan order and whether
   * the abort left anything undone.
   */
  async run(): Promise<{ results: ChangeResult[]; interrupted: boolean }> {
    const n = this.changes.length;
    for (let i = 0; i < n; i++) {
      const why = this.graph.invalid[i];
      if (why && this.state[i] === 'pending') {
        this.record(i, { ...resultBase(this.changes[i]!), status: 'failed', id: null, error: `not run: ${why}`, ms: 0, attempts: 0 });
      }
    }
    for (let i = 0; i < n; i++) if (this.state[i] === 'failed') this.skipDependents(i);
    for (let i = 0; i < n; i++) if (this.state[i] === 'pending' && this.waitingOn[i] === 0) this.addReady(i);

    const stopped = await this.drain();
    // Aborted with nothing left undone (the last call finished anyway) is a complete run.
    const interrupted = stopped && (this.state.some((s) => s === 'pending') || this.cutShort > 0);
    for (let i = 0; i < n; i++) {
      // Only an abort (or a graph the checks missed) leaves changes unstarted.
      if (this.state[i] === 'pending') this.skip(i, interrupted ? NOT_STARTED : 'not reached');
    }
    return { results: this.results as ChangeResult[], interrupted };
  }

  /** Starts what is ready until nothing runs; true when it ended because of the abort. */
  private drain(): Promise<boolean> {
    const signal = this.hooks.signal;
    return new Promise<boolean>((resolve) => {
      let closed = false;
      const pump = (): void => {
        if (closed) return;
        // Checked before every start: an event handler may abort in the middle of this loop.
        while (signal?.aborted !== true && this.running < this.hooks.parallelism && this.ready.length > 0) {
          const i = this.ready.shift()!;
          if (this.state[i] === 'pending') this.start(i, pump);
        }
        const stop = signal?.aborted === true;
        if (this.running === 0 && (stop || this.ready.length === 0)) {
          closed = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(stop);
        }
      };
      const onAbort = (): void => queueMicrotask(pump);
      signal?.addEventListener('abort', onAbort, { once: true });
      pump();
    });
  }

  private start(i: number, pump: () => void): void {
    this.state[i] = 'running';
    this.running += 1;
    this.hooks.started(i);
    void this.hooks.run(i).then(({ result, interrupted }) => {
      this.running -= 1;
      if (interrupted) this.cutShort += 1;
      this.record(i, result);
      if (result.status === 'done') {
        for (const d of this.graph.dependents[i]!) {
          this.waitingOn[d]! -= 1;
          if (this.waitingOn[d] === 0 && this.state[d] === 'pending') this.addReady(d);
        }
      } else {
        this.skipDependents(i);
      }
      pump();
    });
  }

  private addReady(i: number): void {
    // Plan order among ready changes: the plan lists them in a sensible order (e.g. creates first).
    let lo = 0;
    let hi = this.ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ready[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    this.ready.splice(lo, 0, i);
  }

  private record(i: number, r: ChangeResult): void {
    this.results[i] = r;
    this.state[i] = r.status;
    this.hooks.finished(i, r);
  }

  private skip(i: number, reason: string): void {
    this.record(i, { ...resultBase(this.changes[i]!), status: 'skipped', id: null, reason, ms: 0, attempts: 0 });
  }

  /** Skips everything that (transitively) needs change `i`, which did not get done. */
  private skipDependents(i: number): void {
    const stack = [i];
    while (stack.length) {
      const j = stack.pop()!;
      for (const d of this.graph.dependents[j]!) {
        if (this.state[d] !== 'pending') continue;
        this.skip(d, `needs ${changeTitle(this.changes[j]!)}`);
        stack.push(d);
      }
    }
  }
}
