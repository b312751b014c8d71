import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connectForStatus } from '../ops/connect.js';
import type { CommandIo } from './output.js';
import { buildStatusReport, describeActive, statusExitCode, V2_STATUS_QUERY } from '../ops/status.js';
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
    // Which alert, since when, in the text: v1 only (its status filter and data); JSON and v2 stay as they were.
    // The table is what status is for: a failure to describe an alert leaves it as it was.
    if (api === 'v1' && !opts.json) await describeActive(client, report, Math.floor((io.now() + client.serviceClockOffsetMs()) / 1000)).catch(() => undefined);
    io.out(opts.json ? renderStatusJson(report) : renderStatusText(report, { color: io.color }));
    return statusExitCode(report);
  } finally {
    await client.close();
  }
}
