/**
 * `monsync export`: `exportFlow` (src/workflow/export.ts) reads the account and writes the files;
 * this prints the YAML on stdout (without --out) and says on stderr what was written where.
 */
import type { Command } from 'commander';
import { DEFAULT_OWNER } from '../model/live.js';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { collect, CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface ExportOptions extends ConnectionOptions {
  out?: string;
  match?: string[];
  owner: string;
  force?: boolean;
}

export function register(program: Command): void {
  command<ExportOptions>(program, {
    name: 'export',
    description: "write the account's SMTP monitors, their alerts and groups as monsync YAML (to adopt an existing account)",
    options: (cmd) =>
      cmd
        .option('--out <path>', 'write to this file, or to this directory as one file per group (default: stdout)')
        .option('--match <glob>', 'only monitors / groups whose label / name matches (repeatable)', collect)
        .option('--owner <name>', 'settings.owner of the exported config: the value of the managed-by marker', DEFAULT_OWNER)
        .option('--force', 'overwrite files that already exist'),
    service: true,
    help: {
      examples: [
        'monsync export --out monitoring/                  # one file per group, to adopt the account',
        "monsync export --match 'mx-*' --owner mail-team   # some monitors, for a configuration of its own",
      ],
      env: CONNECTION_ENV,
    },
    declaredIn: () => [],
    each: (ctx, { opts, io }) => runExport(opts, io, ctx),
  });
}

export async function runExport(opts: ExportOptions, io: CommandIo, ctx?: CommandContext): Promise<number> {
  const [{ commandContext }, { exportFlow }, lines, { MAIN_FILE }, { printProgress }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/export.js'),
    import('../render/export-lines.js'),
    import('../export/index.js'),
    import('./progress.js'),
  ]);
  const progress = printProgress(io);
  const done = await exportFlow(ctx ?? commandContext(io, [], opts), opts, (e) => {
    if (e.kind === 'export-warning') io.err(lines.renderExportWarning(e.warning));
    else if (e.kind === 'export-stray') io.err(lines.renderStrayFile(e.file, e.dir));
    else if (e.kind === 'export-interrupted') io.err(lines.renderExportInterrupted(e));
    else progress(e);
  });
  if (done.text !== undefined) io.out(done.text);
  io.err(lines.renderExported(done, MAIN_FILE));
  return 0;
}
