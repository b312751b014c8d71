/**
 * `monsync fmt [PATH...] [--check] [--diff]`: `fmtFlow` (src/workflow/fmt.ts) rewrites configuration
 * files in the canonical layout; this lists the files it changed (or, `--diff`, prints the diffs)
 * on stdout and the problems on stderr. Offline: needs no credentials.
 */
import type { Command } from 'commander';
import type { FmtOptions } from '../workflow/fmt.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export type { FmtOptions } from '../workflow/fmt.js';

export function register(program: Command): void {
  command<FmtOptions>(program, {
    name: 'fmt',
    description: 'rewrite configuration files in the canonical layout, keeping every comment, blank line and anchor; offline',
    args: [['[paths...]', 'configuration files or directories of *.yaml / *.yml files (default: monsync.yaml)']],
    options: (cmd) =>
      cmd
        .option('--check', 'write nothing; list the files that are not formatted and exit 1 if there are any (for CI)')
        .option('--diff', 'print what would change as a unified diff instead of writing it'),
    help: {
      about: [
        "Canonical layout: keys in the schema's order (label first, alerts last), two-space indentation,",
        'quotes only where YAML needs them or where YAML 1.1 tools would read another type ("on", "007").',
        'What a file means never changes.',
      ],
      examples: ['monsync fmt monitoring/                  # rewrite, listing the files changed', 'monsync fmt --check --diff monitoring/   # in CI: show what is off, exit 1 if anything is'],
    },
    run: ({ args, opts, io }) => runFmt(args, opts, io),
  });
}

/** 0 when every file is (now) formatted; 1 after a problem, or with --check when a file would change. */
export async function runFmt(paths: string[], opts: FmtOptions, io: CommandIo): Promise<number> {
  const [{ commandContext }, { fmtFlow }, { plural }] = await Promise.all([import('../workflow/context.js'), import('../workflow/fmt.js'), import('../util/plural.js')]);
  const { changed, problems } = await fmtFlow(commandContext(io, paths), opts, (e) => {
    if (e.kind === 'formatted') io.out(e.diff ?? `${e.file}\n`);
  });
  for (const line of problems) io.err(`${line}\n`);
  if (opts.check && changed.length > 0) io.err(`${plural(changed.length, 'file')} not formatted; \`monsync fmt\` rewrites ${changed.length === 1 ? 'it' : 'them'}.\n`);
  return problems.length > 0 || (opts.check && changed.length > 0) ? 1 : 0;
}
