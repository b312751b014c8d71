/**
 * Entry point. Each command lives in its own file and registers itself; heavy modules (the API
 * client, the planner, the emulator) are imported inside the actions so `monsync --help` loads
 * almost nothing.
 */
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, UsageError, UserError } from '../util/errors.js';
import { redact } from '../util/redact.js';
import { terminalSafe } from '../util/safe-text.js';
import { VERSION } from '../version.js';
import { registerCommands } from './commands.js';

/** After every usage error, commander's and ours (UsageError). */
const USAGE_HINT = '(run with --help for usage)';

export async function main(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('monsync')
    .description('Run a Knowledge Front / Mailive! mail-monitoring account as code.')
    .version(VERSION, '-V, --version')
    .option('--no-color', 'disable colour (also honoured: NO_COLOR)')
    .addOption(
      new Option('--log-level <level>', 'HTTP trace on stderr: debug (a line per request) or trace (with bodies); secrets never shown (also MONSYNC_LOG, MONSYNC_LOG_FILE)').choices([
        'off',
        'debug',
        'trace',
      ]),
    )
    .showHelpAfterError(USAGE_HINT)
    .exitOverride()
    .configureOutput({
      // Usage errors quote what was typed: made safe like every other line (reportError).
      writeOut: (s) => process.stdout.write(terminalSafe(s)),
      writeErr: (s) => process.stderr.write(terminalSafe(s)),
      // One prefix for every error, commander's usage errors and ours: `Error: ...`.
      outputError: (s, write) => write(s.replace(/^error: /, 'Error: ')),
    });
  registerCommands(program);
  // Every client is built from the environment (src/api/config.ts): the flag speaks through it.
  program.hook('preAction', () => {
    const level = program.opts<{ logLevel?: string }>().logLevel;
    if (level !== undefined) process.env['MONSYNC_LOG'] = level;
  });

  try {
    const habit = terraformHabit(program, argv.slice(2));
    if (habit) throw new UsageError(habit);
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    // `plan --detailed-exitcode` says "changes" with 2: there a usage error must not look like one.
    return reportError(err, argv.some((a) => a === '--detailed-exitcode' || a === '-detailed-exitcode') ? 1 : USAGE_EXIT);
  }
}

/**
 * What a Terraform user types first, said in monsync's words before commander's bare "unknown": an
 * option with one dash (`-out`, `-auto-approve`) that monsync has with two, and `init`, which monsync
 * has no need of (no state, no providers). Undefined when the command line is none of these.
 */
export function terraformHabit(program: Command, args: string[]): string | undefined {
  const end = args.indexOf('--');
  const words = end === -1 ? args : args.slice(0, end);
  const name = words.find((w) => !w.startsWith('-'));
  const command = program.commands.find((c) => c.name() === name || c.aliases().includes(name ?? ''));
  if (name === 'init' && !command) {
    return 'monsync has no `init`: there is no state or provider to set up. Set MONSYNC_URL and the credentials (README, "Credentials"), then `monsync export` writes the account as YAML, or `monsync validate` and `monsync plan` read your own';
  }
  const longs = new Set([...program.options, ...(command?.options ?? [])].map((o) => o.long).filter((l): l is string => l !== undefined));
  for (const word of words) {
    const m = /^-([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][a-z0-9]{2,})(=.*)?$/s.exec(word);
    if (m && longs.has(`--${m[1]}`)) {
      return `unknown option '${word}': monsync's long options take two dashes, as in \`--${m[1]}${m[2] ?? ''}\``;
    }
  }
  return undefined;
}

/** The exit code of every usage error, commander's and ours (docs/commands.md, "Exit codes"). */
export const USAGE_EXIT = 2;

/** A line of an error report: secrets redacted, characters that act on a terminal escaped. */
const line = (text: string): string => `${terminalSafe(redact(text))}\n`;

export function reportError(err: unknown, usageExit = USAGE_EXIT): number {
  if (err instanceof CommanderError) {
    // Commander already printed help or the usage error.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return 0;
    }
    return err.exitCode === 0 ? 0 : usageExit;
  }
  if (err instanceof ExitCode) return err.code;
  if (err instanceof UserError) {
    process.stderr.write(line(`Error: ${err.message}`));
    for (const detail of err.details) process.stderr.write(line(detail));
    if (err instanceof UsageError) {
      process.stderr.write(`${USAGE_HINT}\n`);
      return usageExit;
    }
    return err.exitCode;
  }
  if (err instanceof Error && err.name === 'ApiError') {
    process.stderr.write(line(`Error: ${err.message}`));
    return 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(line(`monsync: internal error: ${message}`));
  if (process.env.MONSYNC_DEBUG && err instanceof Error && err.stack) process.stderr.write(line(err.stack));
  return 1;
}
