/**
 * `monsync doctor`'s runner: the checks (src/ops/doctor.ts), printed as text or JSON on stdout.
 * Exit 0 when no check is a problem, 1 otherwise.
 */
import type { ConnectionOptions } from '../api/connect.js';
import { runDoctor } from '../ops/doctor.js';
import { renderDoctorJson, renderDoctorText } from '../render/doctor.js';
import type { CommandIo } from './output.js';

export interface DoctorOptions extends ConnectionOptions {
  json?: boolean;
}

export async function runDoctorCommand(paths: string[], opts: DoctorOptions, io: CommandIo): Promise<number> {
  const report = await runDoctor({
    env: io.env,
    connection: { ...(opts.url !== undefined && { url: opts.url }), ...(opts.timeout !== undefined && { timeout: opts.timeout }) },
    paths,
    cwd: io.cwd,
    now: io.now,
  });
  io.out(opts.json ? renderDoctorJson(report) : renderDoctorText(report, { color: io.color }));
  return report.problems > 0 ? 1 : 0;
}
