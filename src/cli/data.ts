/** `monsync data LABEL`: `dataFlow` (src/workflow/data.ts), a monitor's data as a chart or JSON. */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { UsageError } from '../util/errors.js';
import { CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface DataOptions extends ConnectionOptions {
  since: string;
  average: string;
  json?: boolean;
}

const AVERAGES = ['raw', 'hour', 'day'] as const;
type Average = (typeof AVERAGES)[number];

export function register(program: Command): void {
  command<DataOptions>(program, {
    name: 'data',
    description: "chart a monitor's recent response times and failures",
    args: [['<label>', 'monitor label']],
    options: (cmd) =>
      cmd
        .option('--since <duration>', 'how far back: 90m, 24h, 7d, ...', '24h')
        .option('--average <raw|hour|day>', 'raw tests, or hourly / daily averages', 'raw')
        .option('--json', 'print the data as JSON instead of the chart'),
    service: true,
    help: {
      examples: ['monsync data mx-eu-1                         # the last 24 hours, test by test', 'monsync data mx-eu-1 --since 7d --average day'],
      env: [...CONNECTION_ENV, 'NO_COLOR'],
    },
    declaredIn: () => [],
    each: (ctx, { args, opts, io }) => runData(args[0]!, opts, io, ctx),
  });
}

export async function runData(label: string, opts: DataOptions, io: CommandIo, ctx?: CommandContext): Promise<number> {
  const [{ parseDuration }, { commandContext }, { dataFlow }, { renderDataJson, renderDataText }] = await Promise.all([
    import('../util/duration.js'),
    import('../workflow/context.js'),
    import('../workflow/data.js'),
    import('../render/ops-data.js'),
  ]);
  const sinceSeconds = parseDuration(opts.since, '--since');
  const average = opts.average as Average;
  if (!AVERAGES.includes(average)) throw new UsageError(`--average must be raw, hour or day, got "${opts.average}"`);
  const { data, timer } = await dataFlow(ctx ?? commandContext(io, [], opts), { label, sinceSeconds, average });
  io.out(opts.json ? renderDataJson(data) : renderDataText(data, { color: io.color, sinceSeconds, average, timer }));
  return 0;
}
