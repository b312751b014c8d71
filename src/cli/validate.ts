/**
 * `monsync validate`: an offline check of configuration files (`validateFlow`,
 * src/workflow/validate.ts), 0 when valid, 1 after printing every problem and every finding of the
 * checks that need only the configuration. A configuration declaring accounts (docs/accounts.md)
 * is validated account by account through the one account loop: each account's files with its own
 * variables, under a line naming it; exit 1 if any is invalid.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../workflow/context.js';
import { CONFIG_PATHS } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface ValidateOptions {
  /** Fail on the checks' warnings too. */
  strict?: boolean;
}

export function register(program: Command): void {
  command<ValidateOptions>(program, {
    name: 'validate',
    description: 'check configuration files offline (schema, names, references between files); needs no credentials',
    args: [['[paths...]', CONFIG_PATHS]],
    options: (cmd) => cmd.option('--strict', "fail on the checks' warnings too, not only their errors (for CI)"),
    help: {
      examples: [
        'monsync validate monitoring/            # every problem as file:line:column, exit 1 if any',
        "monsync validate monitoring/ --strict   # in CI: the checks' warnings fail too",
      ],
      env: ['${VAR}'],
    },
    run: ({ args, opts, io }) => runValidate(args, opts, io),
  });
}

export async function runValidate(paths: string[], opts: ValidateOptions, io: CommandIo): Promise<number> {
  const [{ openCommand }, { runAccounts, accountLogHeading }] = await Promise.all([import('../workflow/context.js'), import('../workflow/run.js')]);
  const opened = await openCommand({ io, paths, offline: true });
  const { code } = await runAccounts(opened, (ctx) => validateOne(ctx, opts, io), { heading: (name) => io.out(accountLogHeading(name)), failure: (text) => io.err(text) });
  return code;
}

async function validateOne(ctx: CommandContext, opts: ValidateOptions, io: CommandIo): Promise<number> {
  const [{ validateFlow }, { countFindings, formatFinding }, { plural }, { alertCount }] = await Promise.all([
    import('../workflow/validate.js'),
    import('../render/findings.js'),
    import('../util/plural.js'),
    import('../model/desired.js'),
  ]);
  const err = (line: string) => io.err(`${line}\n`);
  const outcome = await validateFlow(ctx, opts);
  if (outcome.status === 'broken') {
    for (const line of outcome.lines) err(line);
    err(`Invalid: ${plural(outcome.errors, 'error')} in ${plural(outcome.files, 'file')}.`);
    return 1;
  }
  for (const line of outcome.warnings) err(line);
  for (const f of outcome.findings) err(formatFinding(f));
  if (outcome.stopped) {
    err(`Invalid: the checks found ${countFindings(outcome.findings)}${opts.strict ? '; --strict fails on warnings too' : ''}.`);
    return 1;
  }
  const s = outcome.desired;
  io.out(
    `Valid: ${plural(s.files.length, 'file')}, ${plural(s.monitors.length, 'monitor')}, ${plural(alertCount(s), 'alert')}, ${plural(s.groups.length, 'group')}` +
      (s.maintenance !== undefined ? `, ${plural(s.maintenance.length, 'maintenance window')}.\n` : '.\n'),
  );
  return 0;
}
