/**
 * `monsync maintain [PATH...]`: pauses the alerts covered by the maintenance windows open now, on the
 * service's clock, until each window's end (src/ops/maintenance.ts holds the rules). A broken
 * configuration is reported and nothing is sent; `--dry-run` reads and says what it would send.
 */
import type { ConnectionOptions } from '../api/connect.js';
import type { DeclaredAccount } from '../config/accounts.js';
import type { PauseSent } from '../ops/maintenance.js';
import type { CommandIo } from './output.js';

export interface MaintainOptions extends ConnectionOptions {
  dryRun?: boolean;
  json?: boolean;
}

/** `account`: a declared account (docs/accounts.md), whose `vars` set `${VAR}` in its files over the environment. */
export async function runMaintain(paths: string[], opts: MaintainOptions, io: CommandIo, account?: DeclaredAccount): Promise<number> {
  const { loadConfig, formatDiagnosticLines } = await import('../config/index.js');
  const result = await loadConfig(paths, { cwd: io.cwd, env: account ? { ...io.env, ...account.vars } : io.env, now: io.now() });
  if ('diagnostics' in result) {
    for (const line of formatDiagnosticLines(result.diagnostics)) io.err(`${line}\n`);
    io.err('Nothing was paused: the configuration is invalid.\n');
    return 1;
  }
  for (const line of formatDiagnosticLines(result.warnings)) io.err(`${line}\n`);
  const windows = result.state.maintenance ?? [];
  const dryRun = opts.dryRun === true;
  const [{ connect }, { readLive }, ops, render] = await Promise.all([
    import('../api/connect.js'),
    import('../plan/read-live.js'),
    import('../ops/maintenance.js'),
    import('../render/maintain.js'),
  ]);
  if (windows.length === 0) {
    const empty = { now_ms: io.now(), open: [] };
    io.out(opts.json ? render.renderMaintainJson(empty, [], { dryRun }) : 'No maintenance windows are declared.\n');
    return 0;
  }
  const api = connect(opts, io.env);
  try {
    const groupsNeeded = new Set(windows.flatMap((w) => w.groups));
    const [{ live }, pauses] = await Promise.all([readLive(api, { groupsNeeded }), api.listPausedAlerts()]);
    // What is open is decided on the service's clock (its Date header), not this machine's. The
    // offset is measured against the transport's clock, Date.now, so it is added to that one.
    const serviceNow = () => Date.now() + (api.serviceClockOffsetMs?.() ?? 0);
    const decision = ops.decideMaintenance(windows, live, pauses, serviceNow(), result.state.settings.ignore);
    const sent: PauseSent[] = [];
    const show = () =>
      io.out(opts.json ? render.renderMaintainJson(decision, sent, { dryRun }) : render.renderMaintainText(decision, sent, { color: io.color, dryRun }));
    try {
      if (!dryRun) await ops.applyMaintenance(api, decision, serviceNow, (p) => sent.push(p));
    } catch (err) {
      // What was paused before the failure is on record (the next run finds those done).
      if (sent.length > 0) show();
      throw err;
    }
    show();
    return 0;
  } finally {
    await api.close();
  }
}
