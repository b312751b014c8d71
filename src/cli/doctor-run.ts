/**
 * `monsync doctor`'s runner: the checks (`doctorFlow`, src/workflow/doctor.ts), printed as text or
 * JSON on stdout. Exit 0 when no check is a problem, 1 otherwise.
 */
import { renderDoctorJson, renderDoctorText } from '../render/doctor.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { doctorFlow } from '../workflow/doctor.js';
import type { CommandIo } from './output.js';

export interface DoctorOptions extends ConnectionOptions {
  json?: boolean;
}

export async function runDoctorCommand(paths: string[], opts: DoctorOptions, io: CommandIo, ctx: CommandContext = commandContext(io, paths, opts)): Promise<number> {
  const report = await doctorFlow(ctx);
  io.out(opts.json ? renderDoctorJson(report) : renderDoctorText(report, { color: io.color }));
  return report.problems > 0 ? 1 : 0;
}
