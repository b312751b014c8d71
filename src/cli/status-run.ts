import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connect } from '../api/connect.js';
import { connectForStatus } from '../ops/connect.js';
import type { WindowPauses } from '../ops/maintenance.js';
import { maintenanceWindows } from './pause-run.js';
import type { CommandIo } from './output.js';
import { buildStatusReport, describeActive, statusExitCode, V2_STATUS_QUERY } from '../ops/status.js';
import { renderStatusJson, renderStatusText } from '../render/ops-status.js';

export interface StatusOptions extends ConnectionOptions {
  all?: boolean;
  json?: boolean;
}

export async function runStatus(opts: StatusOptions, io: CommandIo, paths: string[] = []): Promise<number> {
  // Given the configuration (PATH...), the pauses its maintenance windows made are shown too.
  const windows = await maintenanceWindows(paths, io);
  const { client, api, reason } = connectForStatus(opts, io.env);
  try {
    io.err(`${pc.createColors(io.errColor).dim(reason)}\n`);
    const all = opts.all === true;
    const summary = api === 'v2' ? await client.getV2Status(V2_STATUS_QUERY) : await client.getStatus();
    const report = buildStatusReport(summary, api, all, true);
    // Which alert, since when, in the text: v1 only (its status filter and data); JSON and v2 stay as they were.
    // The table is what status is for: a failure to describe an alert leaves it as it was.
    if (api === 'v1' && !opts.json) await describeActive(client, report, Math.floor((io.now() + client.serviceClockOffsetMs()) / 1000)).catch(() => undefined);
    let maintenance: WindowPauses[] | undefined;
    if (windows !== undefined) {
      const [{ listPaused }, { pausesByWindow, windowOfPause }] = await Promise.all([import('../ops/pause.js'), import('../ops/maintenance.js')]);
      // Pauses are API v1 only: with a v2 OAuth client, the v1 login reads them (connect says what is missing).
      const v1 = api === 'v1' ? client : connect(opts, io.env);
      try {
        // The service's now on the transport's clock (Date.now), against which its offset is measured.
        const now = () => Date.now() + (v1.serviceClockOffsetMs?.() ?? 0);
        const rows = await listPaused(v1, now);
        const at = now();
        maintenance = pausesByWindow(rows.map((r) => ({ ...r, window: windowOfPause(windows, at + r.seconds * 1000, at) })));
      } finally {
        if (v1 !== client) await v1.close();
      }
    }
    io.out(
      opts.json
        ? renderStatusJson(report, maintenance)
        : renderStatusText(report, { color: io.color, ...(maintenance !== undefined ? { maintenance, nowMs: Date.now() + (client.serviceClockOffsetMs?.() ?? 0) } : {}) }),
    );
    return statusExitCode(report);
  } finally {
    await client.close();
  }
}
