/** `monsync drill LABEL`: `drillFlow` (src/workflow/drill.ts) against a local emulator, its report as text. */
import type { Command } from 'commander';
import type { EmulatorControlApi } from '../ops/emulator-control.js';
import { UsageError } from '../util/errors.js';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { CONNECTION_ENV, parsePositiveInt } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface DrillCliOptions extends ConnectionOptions {
  minutes: string;
}

/** A day of simulated minutes is already 1440 control calls. */
const MAX_MINUTES = 1440;

export function register(program: Command): void {
  command<DrillCliOptions>(program, {
    name: 'drill',
    description: 'emulator only: force an outage of a monitor and show which destinations would be told what, and when',
    args: [['<label>', 'monitor label']],
    options: (cmd) => cmd.option('--minutes <n>', 'minutes of outage to simulate', '60'),
    service: true,
    help: {
      examples: ['monsync drill mx-eu-1 --minutes 60   # against `monsync emulator` only; moves its clock forward'],
      env: [...CONNECTION_ENV, 'NO_COLOR'],
    },
    declaredIn: () => [],
    each: (ctx, { args, opts, io }) => runDrillCommand(args[0]!, opts, io, undefined, ctx),
  });
}

export async function runDrillCommand(
  label: string,
  opts: DrillCliOptions,
  io: CommandIo,
  // Tests may stand in for the emulator's control API; the CLI always probes the real one.
  controlFor?: (baseUrl: string) => Promise<EmulatorControlApi>,
  ctx?: CommandContext,
): Promise<number> {
  const minutes = parsePositiveInt(opts.minutes, '--minutes');
  if (minutes > MAX_MINUTES) throw new UsageError(`--minutes must be at most ${MAX_MINUTES} (a day), got ${minutes}`);
  const [{ EmulatorControl }, { commandContext }, { drillFlow }, { renderDrillText, renderDrillStart }] = await Promise.all([
    import('../ops/emulator-control.js'),
    import('../workflow/context.js'),
    import('../workflow/drill.js'),
    import('../render/ops-drill.js'),
  ]);
  const report = await drillFlow(ctx ?? commandContext(io, [], opts), { label, minutes, controlFor: controlFor ?? ((baseUrl) => EmulatorControl.connect(baseUrl)) }, (e) => {
    if (e.kind === 'drill-start') io.err(`${renderDrillStart(e, { color: io.errColor })}\n`);
  });
  io.out(renderDrillText(report, { color: io.color }));
  return 0;
}
