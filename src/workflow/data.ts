/**
 * What `monsync data LABEL` does, without printing: the monitor's data from `sinceSeconds` ago until
 * the service's now (its clock: `ctx.serviceNow`), admitted by the one set of data rules. The client
 * (`ctx.connect`) is closed when it returns.
 */
import type { MonitorData } from '../api/types.js';
import type { CommandContext } from './context.js';

export interface DataFlowOptions {
  label: string;
  sinceSeconds: number;
  average: 'raw' | 'hour' | 'day';
}

/** A monitor's data from `sinceSeconds` ago until the service's now, and its timer. */
export async function dataFlow(ctx: CommandContext, opts: DataFlowOptions): Promise<{ data: MonitorData; timer: number | null }> {
  const { resolveMonitor } = await import('../ops/resolve.js');
  const api = await ctx.connect();
  try {
    const monitor = resolveMonitor(opts.label, await api.listMonitors());
    // `begin` on the service's clock (the monitor list's Date header just told it); `end` is left to
    // the service, whose default is its own now.
    const begin = Math.floor(ctx.serviceNow(api) / 1000) - opts.sinceSeconds;
    // Repeated items counted once, values outside the documented domain left out and counted
    // (src/api/data-rules.ts): the same rules as report, status and apply --verify.
    const { admitMonitorData } = await import('../api/data-rules.js');
    const data = admitMonitorData(await api.getMonitorData(monitor.id, { begin, average: opts.average }), opts.average);
    return { data, timer: monitor.timer };
  } finally {
    await api.close();
  }
}
