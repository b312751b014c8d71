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
        if (timeout !== undefined) (await import('../api/connect.js')).timeoutSeconds(timeout);
      })
  );
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

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got "${value}"`);
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
