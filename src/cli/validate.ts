import type { Command } from 'commander';
import { ExitCode } from '../util/errors.js';
import { plural } from '../util/plural.js';

export interface ValidateIo {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
}

/**
 * Offline check of configuration files: 0 when valid, 1 after printing every problem. The checks
 * that need only the configuration run too (src/checks): their findings are printed, and an error
 * among them (with `strict`, a warning too) makes the configuration invalid.
 */
export async function runValidate(paths: string[], io: ValidateIo = {}, opts: { strict?: boolean } = {}): Promise<number> {
  const { loadConfig, formatDiagnosticLines } = await import('../config/index.js');
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const result = await loadConfig(paths, { cwd: io.cwd, env: io.env });
  if ('diagnostics' in result) {
    for (const line of formatDiagnosticLines(result.diagnostics)) err(line);
    const errors = result.diagnostics.filter((d) => d.severity !== 'warning');
    const files = new Set(errors.map((d) => d.file)).size;
    err(`Invalid: ${plural(errors.length, 'error')} in ${plural(files, 'file')}.`);
    return 1;
  }
  for (const line of formatDiagnosticLines(result.warnings)) err(line);
  const { state } = result;
  const { blocking, countFindings, formatFinding, runChecks } = await import('../checks/index.js');
  const findings = runChecks(state);
  for (const f of findings) err(formatFinding(f));
  if (blocking(findings, opts.strict).length > 0) {
    err(`Invalid: the checks found ${countFindings(findings)}${opts.strict ? '; --strict fails on warnings too' : ''}.`);
    return 1;
  }
  const alerts = state.alerts.length + state.monitors.reduce((n, m) => n + m.alerts.length, 0);
  out(
    `Valid: ${plural(state.files.length, 'file')}, ${plural(state.monitors.length, 'monitor')}, ` +
      `${plural(alerts, 'alert')}, ${plural(state.groups.length, 'group')}.`,
  );
  return 0;
}

export function register(program: Command): void {
  program
    .command('validate')
    .description('check configuration files offline (schema, names, references between files); needs no credentials')
    .argument('[paths...]', 'configuration files or directories of *.yaml / *.yml files (default: monsync.yaml)')
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
    .action(async (paths: string[], opts: { strict?: boolean }) => {
      const code = await runValidate(paths, {}, opts);
      if (code !== 0) throw new ExitCode(code);
    });
}
