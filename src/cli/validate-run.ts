/**
 * `monsync validate`: an offline check of configuration files, 0 when valid, 1 after printing every
 * problem. The checks that need only the configuration run too (src/checks): their findings are
 * printed, and an error among them (with `strict`, a warning too) makes the configuration invalid.
 * A configuration declaring accounts (docs/accounts.md) is validated account by account: each
 * account's files with its own variables, under a line naming it; exit 1 if any is invalid.
 */
import { plural } from '../util/plural.js';
import type { CommandIo } from './output.js';

export interface ValidateOptions {
  /** Fail on the checks' warnings too. */
  strict?: boolean;
}

export async function runValidate(paths: string[], opts: ValidateOptions, io: CommandIo): Promise<number> {
  const { readDeclaredAccounts } = await import('../config/accounts.js');
  const declared = await readDeclaredAccounts(paths, io.cwd);
  if (declared === null) return validateOne(paths, io.env, opts, io);
  let code = 0;
  for (const account of declared.accounts) {
    io.out(`Account ${account.name}:\n`);
    code = Math.max(code, await validateOne(account.paths, { ...io.env, ...account.vars }, opts, io));
  }
  return code;
}

async function validateOne(paths: string[], env: CommandIo['env'], opts: ValidateOptions, io: CommandIo): Promise<number> {
  const { loadConfig, formatDiagnosticLines } = await import('../config/index.js');
  const out = (line: string) => io.out(`${line}\n`);
  const err = (line: string) => io.err(`${line}\n`);
  const result = await loadConfig(paths, { cwd: io.cwd, env });
  if ('diagnostics' in result) {
    for (const line of formatDiagnosticLines(result.diagnostics)) err(line);
    const errors = result.diagnostics.filter((d) => d.severity !== 'warning');
    const files = new Set(errors.map((d) => d.file)).size;
    err(`Invalid: ${plural(errors.length, 'error')} in ${plural(files, 'file')}.`);
    return 1;
  }
  for (const line of formatDiagnosticLines(result.warnings)) err(line);
  const { state } = result;
  const [{ blocking, runChecks }, { countFindings, formatFinding }] = await Promise.all([import('../checks/index.js'), import('../render/findings.js')]);
  const findings = runChecks(state);
  for (const f of findings) err(formatFinding(f));
  if (blocking(findings, opts.strict).length > 0) {
    err(`Invalid: the checks found ${countFindings(findings)}${opts.strict ? '; --strict fails on warnings too' : ''}.`);
    return 1;
  }
  const alerts = state.alerts.length + state.monitors.reduce((n, m) => n + m.alerts.length, 0);
  out(
    `Valid: ${plural(state.files.length, 'file')}, ${plural(state.monitors.length, 'monitor')}, ` +
      `${plural(alerts, 'alert')}, ${plural(state.groups.length, 'group')}` +
      (state.maintenance !== undefined ? `, ${plural(state.maintenance.length, 'maintenance window')}.` : '.'),
  );
  return 0;
}
