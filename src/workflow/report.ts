/**
 * What `monsync report` does, without printing: read the report (src/ops/report.ts) through the
 * command context's client, its period resolved on the service's clock (`ctx.serviceNow`: an
 * emulator's may be anywhere). With configuration files (PATH..., or a declared account's), their
 * objectives (`slo:`) are read first and each monitor and group with one gets its error budget
 * (src/ops/report-slo.ts); a configuration with problems stops the report before any request.
 * Progress goes to `onProgress`; rendering and writing are the runner's.
 */
import type { PeriodRequest, Report, ReportProgress } from '../ops/report.js';
import type { ReportObjectives } from '../ops/report-slo.js';
import type { CommandContext } from './context.js';
import type { OnProgress } from './progress.js';

export interface ReportFlowOptions {
  period: PeriodRequest;
  monitors?: string[];
  groups?: string[];
  /** Requests in flight at once. */
  concurrency: number;
  /** The reads, in the one vocabulary (`report-*`), ending with `report-done`. */
  onProgress?: OnProgress;
}

export async function reportFlow(ctx: CommandContext, opts: ReportFlowOptions): Promise<Report> {
  const { buildReport, resolvePeriod } = await import('../ops/report.js');
  let objectives: ReportObjectives | undefined;
  if (ctx.paths.length > 0) {
    const { desired } = await ctx.loadConfiguration({ consequence: 'no report was read' });
    objectives = {
      monitors: new Map(desired.monitors.flatMap((m) => (m.slo ? [[m.label, m.slo] as const] : []))),
      groups: new Map(desired.groups.flatMap((g) => (g.slo ? [[g.name, g.slo] as const] : []))),
    };
  }
  const api = await ctx.connect({ concurrency: opts.concurrency });
  try {
    return await buildReport(api, {
      period: (now: number) => resolvePeriod(opts.period, now),
      ...(opts.monitors && { monitors: opts.monitors }),
      ...(opts.groups && { groups: opts.groups }),
      concurrency: opts.concurrency,
      ...(objectives && { objectives }),
      now: () => Math.floor(ctx.serviceNow(api) / 1000),
      ...(opts.onProgress && { onProgress: (p: ReportProgress) => opts.onProgress!(reportEvent(p)) }),
    });
  } finally {
    opts.onProgress?.({ kind: 'report-done' });
    await api.close();
  }
}

/** ops/report.ts's own events in the one vocabulary. */
function reportEvent(p: ReportProgress): Parameters<OnProgress>[0] {
  switch (p.kind) {
    case 'start':
      return { kind: 'report-monitors', monitors: p.monitors };
    case 'monitor':
      return { kind: 'report-data', done: p.done, total: p.total };
    case 'alerts':
      return { kind: 'report-alerts' };
  }
}
