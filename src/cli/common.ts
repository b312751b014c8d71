/**
 * Options and plumbing shared by the commands that talk to the service.
 */
import type { Command } from 'commander';
import { UsageError } from '../util/errors.js';

export function addConnectionOptions(cmd: Command): Command {
  return (
    cmd
      .option('--url <url>', 'base URL of the service (default: $MONSYNC_URL)')
      .option('--timeout <seconds>', 'timeout of each request, in seconds', '30')
      // A usage error, so before the command reads anything (the client is built later, lazily).
      .hook('preAction', async (self) => {
        const { timeout } = self.opts<{ timeout?: string }>();
        if (timeout !== undefined) (await import('../workflow/context.js')).timeoutSeconds(timeout);
      })
  );
}

/** `--account NAME` (repeatable) and `--all-accounts`: which declared accounts (docs/accounts.md) a command works on. */
export function addAccountOptions(cmd: Command): Command {
  return cmd
    .option('--account <name>', 'a declared account (settings.accounts) to work on (repeatable); needed when the configuration declares accounts', collect)
    .option('--all-accounts', 'every declared account, in declaration order');
}

/**
 * Colour only where a person is looking: never when NO_COLOR is set or --no-color given, and only
 * on a terminal unless FORCE_COLOR asks otherwise.
 */
export function useColor(program: Command, stream: NodeJS.WriteStream = process.stdout): boolean {
  if (program.opts().color === false) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
}

export function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

/** The one parser of whole-number flags: `min` and, when given, `max` included; a UsageError saying the range otherwise. */
export function parseIntIn(value: string, flag: string, min: number, max?: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
    const range = max !== undefined ? ` from ${min} to ${max}` : min > 0 ? ` of at least ${min}` : '';
    throw new UsageError(`${flag} must be a whole number${range}, got "${value}"`);
  }
  return n;
}

export const parsePositiveInt = (value: string, flag: string): number => parseIntIn(value, flag, 1);

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The paths argument of the commands that read a configuration, in one wording. */
export const CONFIG_PATHS = 'configuration files (YAML or JSON) or directories of them (default: monsync.yaml)';

/** What each environment variable is for, as the Environment section of --help says it. */
const ENVIRONMENT = {
  MONSYNC_URL: 'base URL of the service (--url overrides it)',
  'MONSYNC_USERNAME, MONSYNC_PASSWORD': "API v1: the account's e-mail login and password",
  'MONSYNC_CLIENT_ID, MONSYNC_CLIENT_SECRET': 'API v2: an OAuth client',
  MONSYNC_DEADLINE: 'seconds an API call may take in all, retries included (60)',
  'MONSYNC_LOG, MONSYNC_LOG_FILE': 'HTTP trace (debug or trace), to stderr or a file',
  NODE_EXTRA_CA_CERTS: "a CA certificate file to trust besides the system's (a TLS-inspecting proxy, emulator --tls)",
  MONSYNC_DNS_SERVERS: 'DNS servers `monsync test` asks (127.0.0.1:5353,[::1]:53), instead of the system resolver',
  MONSYNC_VERIFY_POLL_MS: 'apply --verify: real milliseconds between two reads of a monitor\'s data (15000)',
  '${VAR}': 'in configuration values: the variable (${VAR:-default})',
  NO_COLOR: 'no colour (as --no-color)',
  MONSYNC_COMMIT: 'the commit a Markdown plan names (before CI_COMMIT_SHA, GITHUB_SHA, git)',
  'MONSYNC_<NAME>_URL, _USERNAME, _PASSWORD, _CLIENT_ID, _CLIENT_SECRET': 'a declared account\'s own URL and credentials (--account NAME)',
} as const;

export type EnvironmentEntry = keyof typeof ENVIRONMENT;

/** What every command that talks to the service reads (status and doctor read the v2 client too). */
export const CONNECTION_ENV: EnvironmentEntry[] = [
  'MONSYNC_URL',
  'MONSYNC_USERNAME, MONSYNC_PASSWORD',
  'MONSYNC_<NAME>_URL, _USERNAME, _PASSWORD, _CLIENT_ID, _CLIENT_SECRET',
  'MONSYNC_DEADLINE',
  'MONSYNC_LOG, MONSYNC_LOG_FILE',
  'NODE_EXTRA_CA_CERTS',
];

export interface HelpFooter {
  /** Paragraph lines shown first. */
  about?: string[];
  /** Command lines (`monsync plan monitoring/   # comment`), shown as `$ ...`. */
  examples: string[];
  env?: EnvironmentEntry[];
}

/** The text after the options in --help: notes, Examples, Environment (test/cli/help.test.ts). */
export function addHelpFooter(cmd: Command, footer: HelpFooter): Command {
  const lines: string[] = [];
  if (footer.about) lines.push('', ...footer.about);
  lines.push('', 'Examples:', ...footer.examples.map((e) => `  $ ${e}`));
  if (footer.env && footer.env.length > 0) {
    const width = Math.max(...footer.env.map((v) => v.length));
    lines.push('', 'Environment:', ...footer.env.map((v) => `  ${v.padEnd(width)}  ${ENVIRONMENT[v]}`));
  }
  return cmd.addHelpText('after', lines.join('\n'));
}

/**
 * Defaults shown as they are typed, `(default: 8)`: commander quotes a string default (`"8"`),
 * which is not how anyone types it. Run once over the command table.
 */
export function showDefaultsAsTyped(program: Command): void {
  for (const cmd of [program, ...program.commands]) {
    for (const o of cmd.options) {
      if (typeof o.defaultValue === 'string' && o.defaultValueDescription === undefined) o.defaultValueDescription = o.defaultValue;
    }
  }
}
