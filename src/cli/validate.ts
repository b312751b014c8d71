import type { Command } from 'commander';
import { ExitCode } from '../util/errors.js';
import { plural } from '../util/plural.js';

export interface ValidateIo {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
}

/** Offline check of configuration files: 0 when valid, 1 after printing every problem. */
export async function runValidate(paths: string[], io: ValidateIo = {}): Promise<number> {
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
    .action(async (paths: string[]) => {
      const code = await runValidate(paths);
      if (code !== 0) throw new ExitCode(code);
    });
}
