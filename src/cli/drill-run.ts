/** `monsync drill LABEL`: parses the options, runs `drillFlow` (src/workflow/operate.ts) against a local emulator, prints the report. */
import pc from 'picocolors';
import { EmulatorControl, type EmulatorControlApi } from '../ops/emulator-control.js';
import { renderDrillText } from '../render/ops-drill.js';
import { UsageError } from '../util/errors.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { drillFlow } from '../workflow/operate.js';
import { parsePositiveInt } from './common.js';
import type { CommandIo } from './output.js';

export interface DrillCliOptions extends ConnectionOptions {
  minutes: string;
}

/** A day of simulated minutes is already 1440 control calls. */
const MAX_MINUTES = 1440;

export async function runDrillCommand(
  label: string,
  opts: DrillCliOptions,
  io: CommandIo,
  // Tests may stand in for the emulator's control API; the CLI always probes the real one.
  controlFor: (baseUrl: string) => Promise<EmulatorControlApi> = (baseUrl) => EmulatorControl.connect(baseUrl),
  ctx: CommandContext = commandContext(io, [], opts),
): Promise<number> {
  const minutes = parsePositiveInt(opts.minutes, '--minutes');
  if (minutes > MAX_MINUTES) throw new UsageError(`--minutes must be at most ${MAX_MINUTES} (a day), got ${minutes}`);
  const dim = pc.createColors(io.errColor).dim;
  const report = await drillFlow(ctx, {
    label,
    minutes,
    controlFor,
    onStart: ({ outageMinutes, recovery }) =>
      io.err(
        `${dim(`Advancing the emulator clock minute by minute: ${outageMinutes} of outage, then ${recovery.min} to ${recovery.max} until the monitor has recovered…`)}\n`,
      ),
  });
  io.out(renderDrillText(report, { color: io.color }));
  return 0;
}
