/**
 * `monsync apply`: plan (or read a saved plan), show it, check the delete threshold, ask, run the
 * changes with live progress, then plan again to show whether the account now matches.
 */
import { createInterface } from 'node:readline/promises';
import type { ConnectionOptions } from '../api/connect.js';
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { Plan } from '../plan/types.js';
import { UsageError, UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import { redact } from '../util/redact.js';
import { readAccount } from '../workflow/account.js';
import { computePlan, loadDesired, planFlow, stopOnFindings } from '../workflow/plan.js';
import { parsePositiveInt } from './common.js';
import type { CommandIo } from './output.js';
import { printProgress } from './progress.js';

export interface ApplyOptions extends ConnectionOptions {
  plan?: string;
  autoApprove?: boolean;
  parallelism: string;
  maxDeletes?: string;
  force?: boolean;
  target?: string[];
  prune?: boolean;
  strict?: boolean;
  /** Wait for the first round trip of each created or changed monitor (src/mailpath/verify.ts). */
  verify?: boolean;
}

export async function runApply(paths: string[], opts: ApplyOptions, io: CommandIo): Promise<number> {
  const parallelism = parsePositiveInt(opts.parallelism, '--parallelism');
  const maxDeletes = opts.maxDeletes === undefined ? undefined : parseNonNegativeInt(opts.maxDeletes, '--max-deletes');
  const { color, out } = io;
  // The client's own cap must not hold apply below --parallelism (its default is 16).
  const concurrency = Math.max(16, parallelism);
  let api: MonitoringApi;
  let plan: Plan;
  let live: LiveState;
  let desired: DesiredState | null = null;
  if (opts.plan) {
    if (paths.length > 0) throw new UsageError('give either configuration paths or --plan FILE, not both');
    // The saved plan fixed its targets and pruning when it was made: silently running all of it would
    // do more than a `--target` on the command line says.
    if ((opts.target?.length ?? 0) > 0 || opts.prune) {
      throw new UsageError('--target and --prune cannot be combined with --plan FILE: the saved plan already fixed them; run plan again with them');
    }
    api = (await import('../api/connect.js')).connect(opts, io.env, { concurrency });
    ({ plan, live } = await loadSavedPlan(api, opts.plan, io));
    // The findings the plan was made with: an error would have stopped it, a warning stops --strict.
    await stopOnFindings(plan.checks ?? [], opts.strict);
  } else {
    ({ plan, live, desired, api } = await planFlow(async () => (await import('../api/connect.js')).connect(opts, io.env, { concurrency }), {
      paths,
      prune: opts.prune,
      targets: opts.target,
      strict: opts.strict,
      onProgress: printProgress(io),
    }));
  }

  const [{ renderPlanText }, { noChangesLine }] = await Promise.all([import('../render/plan-text.js'), import('../render/format.js')]);
  out(renderPlanText(plan, { color }).replace(/\n*$/, '\n'));
  if (plan.changes.length === 0) return 0;

  const { checkDeletes } = await import('../apply/safety.js');
  const safety = checkDeletes(plan, managedCount(live, plan.options.owner), { maxDeletes, force: opts.force });
  if (!safety.ok) throw new UserError(safety.message, { details: safety.deletes.map((d) => `  - ${d}`) });

  if (!opts.autoApprove) {
    if (!process.stdin.isTTY) {
      throw new UserError('not on a terminal, so there is nobody to confirm: review the plan above and run again with --auto-approve');
    }
    const answer = await confirmApply(process.stdin, process.stdout);
    if (answer !== 'yes') {
      out(`${answer === 'interrupted' ? '\n' : ''}Apply cancelled; nothing was changed.\n`);
      return answer === 'interrupted' ? 130 : 1;
    }
  }

  // Plan again afterwards, so the log shows whether the account now matches (or what still differs).
  const planAgain = desired !== null || plan.files.length > 0;
  const { result, signal } = await execute(plan, api, parallelism, io, planAgain);

  if (result.interrupted) return exitCodeOf(signal);

  if (planAgain) {
    out('Checking ... ');
    try {
      // The configuration this run applied, not a second read of the files: the check is whether the
      // account now matches what was applied, and parsing a large YAML twice doubled the overhead.
      const again = desired ?? (await loadDesired(plan.files));
      const liveAfter = await readAccount(api, again);
      const next = await computePlan(again, liveAfter, api, { prune: plan.options.prune, targets: plan.options.targets });
      if (next.changes.length === 0) out(`${noChangesLine(next)}\n`);
      else out(`\n${renderPlanText(next, { color })}`.replace(/\n*$/, '\n'));
    } catch (err) {
      // The changes were made: a check that cannot run (a saved plan's files are not where they were,
      // the account cannot be read again) must not fail the run, nor say that no change was sent.
      if (!(err instanceof UserError) && !(err instanceof Error && err.name === 'ApiError')) throw err;
      out('not possible.\n');
      io.err('Warning: the changes were made, but planning again to check them failed; run `monsync plan` to see whether the account matches.\n');
      for (const line of err instanceof UserError ? err.details : [err.message]) io.err(`${redact(line)}\n`);
    }
  }
  // --verify: a monitor that never completes its first round trip fails the run too.
  const unverified = opts.verify ? await (await import('./apply-verify.js')).verifyApplied(result, api, io) : 0;
  return result.failed > 0 || unverified > 0 ? 1 : 0;
}

/**
 * Asks for "yes". Ctrl-C at the prompt (readline turns it into an AbortError, or a 'SIGINT' on the
 * interface) is an interruption, not an internal error: nothing was changed, exit 130. Ctrl-D (the
 * end of input, which closes the interface and would leave the question unanswered) is a "no".
 */
export async function confirmApply(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<'yes' | 'no' | 'interrupted'> {
  const rl = createInterface({ input, output });
  const controller = new AbortController();
  let interrupted = false;
  let answered = false;
  rl.once('SIGINT', () => {
    interrupted = true;
    controller.abort();
  });
  rl.once('close', () => {
    if (answered || interrupted) return;
    // The cursor is still after the prompt.
    output.write('\n');
    controller.abort();
  });
  try {
    const answer = await rl.question('\nDo you want to perform these actions? Only "yes" will be accepted: ', { signal: controller.signal });
    answered = true;
    return answer.trim() === 'yes' ? 'yes' : 'no';
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') return interrupted ? 'interrupted' : 'no';
    throw err;
  } finally {
    answered = true;
    rl.close();
  }
}

/** The shell's convention: 128 + the signal's number (SIGINT 2 -> 130, SIGTERM 15 -> 143). */
function exitCodeOf(signal: NodeJS.Signals | null): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/**
 * Runs the plan's changes, printing progress. Ctrl-C (SIGINT) and SIGTERM, which CI systems send to
 * cancel a job, stop it alike: no new call starts, running ones finish, the summary is printed;
 * the same signal again quits at once.
 */
async function execute(plan: Plan, api: MonitoringApi, parallelism: number, io: CommandIo, planFollows: boolean) {
  const { color, out } = io;
  const { executePlan } = await import('../apply/execute.js');
  const render = await import('../render/apply-text.js');
  const tty = Boolean(process.stdout.isTTY);
  const controller = new AbortController();
  // Writes to a pipe or file block (write(2) per call): one per finished change made a 1,000-change
  // apply spend longer writing its log than waiting for the service. Log lines are gathered and
  // written at most every 100 ms, and always before anything else is printed. In a terminal they go
  // above the live line (which shows only what is in flight), with its redraw.
  let pending = '';
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending !== '') out(tty ? `\r\x1b[2K${pending}` : pending);
    pending = '';
  };
  const logLine = (s: string) => {
    pending += `${s}\n`;
    if (!tty) flushTimer ??= setTimeout(flush, 100);
  };
  const stop: { signal: NodeJS.Signals | null } = { signal: null };
  const onSignal = (received: NodeJS.Signals) => {
    flush();
    if (stop.signal !== null) process.exit(exitCodeOf(received));
    stop.signal = received;
    const again = received === 'SIGINT' ? 'Ctrl-C' : received;
    io.err(`\nInterrupted: starting no new calls, waiting for running ones (${again} again to quit now).\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  out(`Applying ${plural(plan.changes.length, 'change')} with parallelism ${parallelism}\n`);
  const before = { ...api.stats };
  const started = performance.now();
  const running = new Map<string, string>();
  let finished = 0;
  let timer: NodeJS.Timeout | undefined;
  const drawLive = () => {
    const line = render.renderLiveLine({
      done: finished,
      total: plan.changes.length,
      elapsedMs: performance.now() - started,
      running: [...running.values()],
      width: process.stdout.columns ?? 100,
    });
    out(`\r\x1b[2K${pending}${line}`);
    pending = '';
  };
  if (tty) timer = setInterval(drawLive, 100);

  try {
    const result = await executePlan(plan, api, {
      parallelism,
      signal: controller.signal,
      owner: plan.options.owner,
      onEvent: (e) => {
        if (e.type === 'started') {
          running.set(e.ref, e.label);
        } else if (e.type === 'finished') {
          running.delete(e.result.ref);
          finished += 1;
          // What an interruption left unstarted is counted in the summary, not listed line by line.
          if (!render.showsAsFinished(e.result)) return;
          // A line per finished change, in a terminal too: what was done stays on the screen.
          logLine(render.renderFinishedLine(e.result, { color }));
        }
      },
    });
    flush();
    if (tty) out('\r\x1b[2K');
    for (const line of render.renderNotStarted(result, { color })) out(`${line}\n`);
    const stats = { requests: api.stats.requests - before.requests, retries: api.stats.retries - before.retries };
    out(`${render.renderApplySummary(result, stats, { color, planFollows })}\n`);
    return { result, signal: stop.signal };
  } finally {
    flush();
    if (timer) clearInterval(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function loadSavedPlan(api: MonitoringApi, file: string, io: CommandIo): Promise<{ plan: Plan; live: LiveState }> {
  const { readSavedPlan, checkFingerprint } = await import('../apply/saved-plan.js');
  const { fingerprintLive } = await import('../plan/fingerprint.js');
  const saved = await readSavedPlan(file);
  if (!saved.ok) throw new UserError(saved.error);
  const plan = saved.plan;
  if (plan.target !== api.baseUrl) {
    throw new UserError(`this plan was made against ${plan.target}, not ${api.baseUrl}; run plan again`);
  }
  const live = await readAccount(api, null, printProgress(io));
  const check = checkFingerprint(plan, fingerprintLive(live, plan.options));
  if (!check.ok) throw new UserError(check.message);
  return { plan, live };
}

/** Resources monsync owns in the account: the base of the percentage delete threshold. */
function managedCount(live: LiveState, owner: string): number {
  const managed = new Set(live.monitors.filter((m) => m.type === 'smtp' && m.meta['managed-by'] === owner).map((m) => m.id));
  return managed.size + live.alerts.filter((a) => managed.has(a.monitor)).length;
}

function parseNonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}

