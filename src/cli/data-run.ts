import type { ConnectionOptions } from '../api/connect.js';
import { connect } from '../api/connect.js';
import { admitMonitorData } from '../api/data-rules.js';
import { parseDuration } from '../ops/duration.js';
import type { CommandIo } from './output.js';
import { resolveMonitor } from '../ops/resolve.js';
import { renderDataJson, renderDataText } from '../render/ops-data.js';
import { UsageError } from '../util/errors.js';

export interface DataOptions extends ConnectionOptions {
  since: string;
  average: string;
  json?: boolean;
}

const AVERAGES = ['raw', 'hour', 'day'] as const;
type Average = (typeof AVERAGES)[number];

export async function runData(label: string, opts: DataOptions, io: CommandIo): Promise<number> {
  const sinceSeconds = parseDuration(opts.since, '--since');
  const average = opts.average as Average;
  if (!AVERAGES.includes(average)) throw new UsageError(`--average must be raw, hour or day, got "${opts.average}"`);
  const api = connect(opts, io.env);
  try {
    const monitor = resolveMonitor(label, await api.listMonitors());
    // `begin` on the service's clock (the monitor list's Date header just told it); `end` is left to
    // the service, whose default is its own now.
    const begin = Math.floor((io.now() + api.serviceClockOffsetMs()) / 1000) - sinceSeconds;
    const data = admitMonitorData(await api.getMonitorData(monitor.id, { begin, average }), average);
    io.out(opts.json ? renderDataJson(data) : renderDataText(data, { color: io.color, sinceSeconds, average, timer: monitor.timer }));
    return 0;
  } finally {
    await api.close();
  }
}
