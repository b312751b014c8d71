/** `monsync data LABEL`: parses the options, runs `dataFlow` (src/workflow/operate.ts), prints the data. */
import { parseDuration } from '../ops/duration.js';
import { renderDataJson, renderDataText } from '../render/ops-data.js';
import { UsageError } from '../util/errors.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { dataFlow } from '../workflow/operate.js';
import type { CommandIo } from './output.js';

export interface DataOptions extends ConnectionOptions {
  since: string;
  average: string;
  json?: boolean;
}

const AVERAGES = ['raw', 'hour', 'day'] as const;
type Average = (typeof AVERAGES)[number];

export async function runData(label: string, opts: DataOptions, io: CommandIo, ctx: CommandContext = commandContext(io, [], opts)): Promise<number> {
  const sinceSeconds = parseDuration(opts.since, '--since');
  const average = opts.average as Average;
  if (!AVERAGES.includes(average)) throw new UsageError(`--average must be raw, hour or day, got "${opts.average}"`);
  const { data, timer } = await dataFlow(ctx, { label, sinceSeconds, average });
  io.out(opts.json ? renderDataJson(data) : renderDataText(data, { color: io.color, sinceSeconds, average, timer }));
  return 0;
}
