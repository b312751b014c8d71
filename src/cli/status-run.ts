import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connectForStatus } from '../ops/connect.js';
import type { CommandIo } from './output.js';
import { buildStatusReport, statusExitCode, V2_STATUS_QUERY } from '../ops/status.js';
import { renderStatusJson, renderStatusText } from '../render/ops-status.js';

export interface StatusOptions extends ConnectionOptions {
  all?: boolean;
  json?: boolean;
}

export async function runStatus(opts: StatusOptions, io: CommandIo): Promise<number> {
  const { client, api, reason } = connectForStatus(opts, io.env);
  try {
    io.err(`${pc.createColors(io.errColor).dim(reason)}\n`);
    const all = opts.all === true;
    const summary = api === 'v2' ? await client.getV2Status(V2_STATUS_QUERY) : await client.getStatus();
    const report = buildStatusReport(summary, api, all, true);
    io.out(opts.json ? renderStatusJson(report) : renderStatusText(report, { color: io.color }));
    return statusExitCode(report);
  } finally {
    await client.close();
  }
}
