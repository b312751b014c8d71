import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connect } from '../api/connect.js';
import { runDrill } from '../ops/drill.js';
import { EmulatorControl, type EmulatorControlApi } from '../ops/emulator-control.js';
import type { CommandIo } from './output.js';
import { renderDrillText } from '../render/ops-drill.js';
import { parsePositiveInt } from './common.js';
import { UsageError } from '../util/errors.js';

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
): Promise<number> {
  const minutes = parsePositiveInt(opts.minutes, '--minutes');
  if (minutes > MAX_MINUTES) throw new UsageError(`--minutes must be at most ${MAX_MINUTES} (a day), got ${minutes}`);
  const api = connect(opts, io.env);
  try {
    // Refused before any API call when the target is not a local emulator.
    const control = await controlFor(api.baseUrl);
    const dim = pc.createColors(io.errColor).dim;
    const report = await runDrill(api, control, {
      label,
      minutes,
      onStart: ({ outageMinutes, recovery }) =>
        io.err(
          `${dim(`Advancing the emulator clock minute by minute: ${outageMinutes} of outage, then ${recovery.min} to ${recovery.max} until the monitor has recovered…`)}\n`,
        ),
    });
    io.out(renderDrillText(report, { color: io.color }));
    return 0;
  } finally {
    await api.close();
  }
}
